"""Page fingerprints: the interactive skeleton, blind to names, ids, order and wrappers."""

from __future__ import annotations

import random
import re

from agent.memory.fingerprint import page_fingerprint
from verification import PageElement, PageState

URL = "https://miniwob.test/click-button"


def _buttons(labels: list[str], ids: list[str] | None = None, **extra: object) -> PageState:
    ids = ids or [str(i) for i in range(len(labels))]
    return PageState.from_elements(
        [PageElement(id=i, role="button", name=label, **extra) for i, label in zip(ids, labels, strict=True)],  # type: ignore[arg-type]
        url=URL,
    )


def _signup(fields: tuple[str, ...] = ("Name", "Email"), *, wrap: bool = False, form: str = "Sign up") -> PageState:
    inputs = "".join(f'<label>{f} <input id="f{n}" name="{f.lower()}" value="v{n}"></label>' for n, f in enumerate(fields))
    body = f'<form aria-label="{form}">{inputs}<button>Create</button></form><a href="/help">Help</a>'
    if wrap:
        body = f'<div class="a"><div class="b">{body}</div></div>'
    return PageState.from_html(f"<main>{body}</main>", url="https://a.test/signup")


def test_sixteen_hex_characters_and_memoised() -> None:
    page = _buttons(["ok"])
    fingerprint = page_fingerprint(page)
    assert re.fullmatch(r"[0-9a-f]{16}", fingerprint)
    assert page_fingerprint(page) is fingerprint


def test_relabelled_buttons_share_a_fingerprint() -> None:
    # MiniWoB relabels its buttons every episode.
    assert page_fingerprint(_buttons(["ok", "no", "submit"])) == page_fingerprint(_buttons(["yes", "cancel", "previous"]))


def test_renumbered_ids_and_shuffled_order_share_a_fingerprint() -> None:
    rng = random.Random(7)
    base = [
        PageElement(id="1", role="textbox", name="Name", input_type="text", container=("form: New patient",)),
        PageElement(id="2", role="textbox", name="Email", input_type="email", container=("form: New patient",)),
        PageElement(id="3", role="button", name="Save", container=("form: New patient",)),
        PageElement(id="4", role="link", name="Home", href="/"),
    ]
    reference = page_fingerprint(PageState.from_elements(base, url=URL))
    for n in range(20):
        shuffled = rng.sample(base, len(base))
        renumbered = [
            PageElement(id=f"x{n}{i}", role=e.role, name=e.name.upper(), value=f"typed {n}", input_type=e.input_type, container=("form: Renamed",) if e.container else ())
            for i, e in enumerate(shuffled)
        ]
        assert page_fingerprint(PageState.from_elements(renumbered, url=URL)) == reference


def test_wrapper_divs_renamed_labels_and_values_keep_it() -> None:
    assert page_fingerprint(_signup()) == page_fingerprint(_signup(("Full name", "E-mail"), wrap=True, form="Register"))


def test_one_or_several_counts_not_how_many() -> None:
    assert page_fingerprint(_signup(("Name",))) != page_fingerprint(_signup())
    assert page_fingerprint(_buttons(["a"])) != page_fingerprint(_buttons(["a", "b"]))
    assert page_fingerprint(_signup()) == page_fingerprint(_signup(("Name", "Email", "Phone")))  # a feed, an episode's list
    assert page_fingerprint(_buttons(["a", "b"])) == page_fingerprint(_buttons(["a", "b", "c", "d", "e"]))


def test_a_new_kind_of_control_changes_it() -> None:
    plain = _signup()
    with_box = PageState.from_html(
        '<main><form aria-label="Sign up"><label>Name <input></label><label>Email <input></label>'
        '<label><input type="checkbox"> News</label><button>Create</button></form><a href="/help">Help</a></main>',
        url="https://a.test/signup",
    )
    assert page_fingerprint(plain) != page_fingerprint(with_box)


def test_a_different_form_changes_it() -> None:
    login = PageState.from_html(
        '<main><form aria-label="Log in"><input name="u"><input type="password" name="p"><button>Go</button></form><a href="/help">Help</a></main>',
        url="https://a.test/login",
    )
    assert page_fingerprint(login) != page_fingerprint(_signup())


def test_a_dialog_or_overlay_changes_it() -> None:
    plain = _buttons(["a", "b"])
    covered = _buttons(["a", "b"], occluded=True)
    with_dialog = PageState.from_elements(
        [*plain.elements, PageElement(id="d1", role="button", name="Accept", container=("dialog: Cookies",))], url=URL
    )
    fingerprints = {page_fingerprint(plain), page_fingerprint(covered), page_fingerprint(with_dialog)}
    assert len(fingerprints) == 3


def test_hidden_elements_do_not_count() -> None:
    visible = _buttons(["a", "b"])
    with_hidden = PageState.from_elements([*visible.elements, PageElement(id="h", role="textbox", name="x", hidden=True)], url=URL)
    assert page_fingerprint(visible) == page_fingerprint(with_hidden)


def test_frames_and_input_types_count() -> None:
    text = PageState.from_elements([PageElement(id="1", role="textbox", name="a", input_type="text")], url=URL)
    password = PageState.from_elements([PageElement(id="1", role="textbox", name="a", input_type="password")], url=URL)
    framed = PageState.from_elements([PageElement(id="1", role="textbox", name="a", input_type="text", frame=1)], url=URL)
    assert len({page_fingerprint(text), page_fingerprint(password), page_fingerprint(framed)}) == 3


def test_v3_and_role_aliases_agree() -> None:
    tree_a = PageState.from_v3([{"i": "1", "r": "btn", "n": "ok"}, {"i": "2", "r": "inp", "n": "Name"}], url=URL)
    tree_b = PageState.from_v3([{"i": "9", "r": "textbox", "n": "Nom"}, {"i": "8", "r": "button", "n": "oui"}], url=URL)
    assert page_fingerprint(tree_a) == page_fingerprint(tree_b)
