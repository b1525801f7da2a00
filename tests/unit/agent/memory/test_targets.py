"""Semantic targets: recorded without ids or positions, found again only when unique."""

from __future__ import annotations

import random

from agent.memory.targets import SemanticTarget, describe_target, href_path, reidentify
from verification import PageElement, PageState

URL = "https://clinic.test/patients/new"


def _page(*elements: PageElement) -> PageState:
    return PageState.from_elements(elements, url=URL)


def _form(ids: tuple[str, ...] = ("1", "2", "3", "4"), order: tuple[int, ...] = (0, 1, 2, 3)) -> PageState:
    elements = [
        PageElement(id=ids[0], role="textbox", name="First name", placeholder="Jane", container=("form: New patient",)),
        PageElement(id=ids[1], role="textbox", name="Last name", placeholder="Doe", container=("form: New patient",)),
        PageElement(id=ids[2], role="button", name="Save", container=("form: New patient",)),
        PageElement(id=ids[3], role="link", name="All patients", href="https://clinic.test/patients?page=1#top"),
    ]
    return _page(*(elements[i] for i in order))


def test_describe_keeps_what_a_person_names_it_by_and_never_ids_or_values() -> None:
    element = PageElement(
        id="47", role="inp", name="  Email   address ", value="bob@x.org", input_type="EMAIL", placeholder="you@example.com",
        context="Contact", container=("form: Sign up",), xy=(10.0, 20.0), href=None,
    )
    target = describe_target(element)
    assert target == SemanticTarget(
        role="textbox", name="Email address", placeholder="you@example.com", input_type="email",
        context="Contact", container=("form: Sign up",),
    )
    data = target.to_dict()
    assert "47" not in str(data) and "bob@x.org" not in str(data) and "xy" not in data
    assert SemanticTarget.from_dict(data) == target
    assert target.describe() == 'textbox "Email address" (placeholder "you@example.com") near "Contact" in form: Sign up'


def test_to_dict_omits_empty_fields() -> None:
    assert SemanticTarget(role="button", name="Save").to_dict() == {"role": "button", "name": "Save"}


def test_href_is_path_and_query_only() -> None:
    assert href_path("https://a.test/x/y?q=1#frag") == "/x/y?q=1"
    assert href_path("/x") == "/x"
    assert href_path("") is None and href_path(None) is None
    target = describe_target(PageElement(id="9", role="link", name="Next", href="https://clinic.test/patients?page=2#top"))
    assert target.href == "/patients?page=2"


def test_unique_hit_after_ids_renumbered_and_siblings_shuffled() -> None:
    recorded = _form()
    save = describe_target(recorded.element("3"))  # type: ignore[arg-type]
    link = describe_target(recorded.element("4"))  # type: ignore[arg-type]
    live = _form(ids=("a91", "a92", "a93", "a94"), order=(3, 1, 0, 2))
    assert reidentify(save, live).element.id == "a93"  # type: ignore[union-attr]
    found = reidentify(link, live)
    assert found.element is not None and found.element.id == "a94" and found.candidates == 1 and found.reason == ""


def test_case_and_spacing_differences_are_tolerated() -> None:
    target = SemanticTarget(role="button", name="Add  patient", container=("form: New visit",))
    live = _page(PageElement(id="5", role="btn", name="ADD PATIENT", container=("Form:  new VISIT",)))
    assert reidentify(target, live).element is not None


def test_two_look_alikes_are_a_miss() -> None:
    target = SemanticTarget(role="button", name="Delete")
    live = _page(PageElement(id="1", role="button", name="Delete"), PageElement(id="2", role="button", name="delete"))
    found = reidentify(target, live)
    assert found.element is None and found.candidates == 2 and found.reason.startswith("2 elements match")


def test_swapped_labels_between_two_controls_are_a_miss_not_a_wrong_click() -> None:
    target = describe_target(_form().element("1"))  # type: ignore[arg-type]  # "First name", placeholder Jane
    swapped = _page(
        PageElement(id="1", role="textbox", name="Last name", placeholder="Jane", container=("form: New patient",)),
        PageElement(id="2", role="textbox", name="First name", placeholder="Doe", container=("form: New patient",)),
    )
    found = reidentify(target, swapped)
    assert found.element is None and found.candidates == 0 and found.reason.startswith("no element matches")


def test_swapped_context_is_a_miss() -> None:
    target = SemanticTarget(role="textbox", name="Amount", context="Deposit")
    live = _page(
        PageElement(id="1", role="textbox", name="Amount", context="Withdraw"),
        PageElement(id="2", role="textbox", name="Amount", context="Transfer"),
    )
    assert reidentify(target, live).candidates == 0


def test_every_recorded_attribute_must_agree() -> None:
    base = dict(id="1", role="textbox", name="Code", placeholder="ABC", input_type="text", context="Promo", container=("form: Pay",), href=None)
    target = describe_target(PageElement(**base))  # type: ignore[arg-type]
    for key, other in (("placeholder", "XYZ"), ("input_type", "password"), ("context", "Gift"), ("container", ("form: Ship",)), ("role", "combobox")):
        live = _page(PageElement(**{**base, key: other}))  # type: ignore[arg-type]
        assert reidentify(target, live).candidates == 0, key
    link = SemanticTarget(role="link", name="Open", href="/a?x=1")
    assert reidentify(link, _page(PageElement(id="1", role="link", name="Open", href="https://h.test/a?x=2"))).candidates == 0
    assert reidentify(link, _page(PageElement(id="1", role="link", name="Open", href="https://other.test/a?x=1#f"))).element is not None


def test_unrecorded_attributes_are_not_compared() -> None:
    target = SemanticTarget(role="button", name="Save")
    live = _page(PageElement(id="1", role="button", name="Save", context="Profile", container=("card: Me",)))
    assert reidentify(target, live).element is not None


def test_hidden_elements_are_never_matched() -> None:
    target = SemanticTarget(role="button", name="Save")
    live = _page(PageElement(id="1", role="button", name="Save", hidden=True), PageElement(id="2", role="button", name="Save"))
    assert reidentify(target, live).element.id == "2"  # type: ignore[union-attr]
    assert reidentify(target, _page(PageElement(id="1", role="button", name="Save", hidden=True))).candidates == 0


def test_covered_by_a_dialog_is_a_miss() -> None:
    target = SemanticTarget(role="button", name="Save", container=("form: New patient",))
    live = _page(
        PageElement(id="1", role="button", name="Save", occluded=True, container=("form: New patient",)),
        PageElement(id="9", role="button", name="Accept cookies", container=("dialog: Cookies",)),
    )
    found = reidentify(target, live)
    assert found.element is None and found.candidates == 1 and found.reason == "covered"


def test_disabled_is_a_miss() -> None:
    live = _page(PageElement(id="1", role="button", name="Save", states=frozenset({"disabled"})))
    assert reidentify(SemanticTarget(role="button", name="Save"), live).reason == "disabled"


def test_variables_are_recorded_as_references_and_bound_on_replay() -> None:
    recorded = _page(
        PageElement(id="7", role="link", name="Bob Smith", href="/patients/42?tab=visits", container=("row: Bob Smith · 42",)),
        PageElement(id="8", role="button", name="Delete Bob Smith", container=("row: Bob Smith · 42",)),
    )
    variables = {"v1": "bob smith", "v2": "42"}
    link = describe_target(recorded.element("7"), variables)  # type: ignore[arg-type]
    delete = describe_target(recorded.element("8"), variables)  # type: ignore[arg-type]
    assert link.name == "{v1}" and link.href == "/patients/{v2}?tab=visits" and link.container == ("row: …{v1}…{v2}…",)
    assert delete.name == "Delete {v1}" and delete.references() == {"v1", "v2"}
    live = _page(
        PageElement(id="x1", role="link", name="Ann Lee", href="/patients/7?tab=visits", container=("row: Ann Lee · 7",)),
        PageElement(id="x2", role="button", name="Delete Ann Lee", container=("row: Ann Lee · 7",)),
        PageElement(id="x3", role="link", name="Bob Smith", href="/patients/42?tab=visits", container=("row: Bob Smith · 42",)),
        PageElement(id="x4", role="button", name="Delete Bob Smith", container=("row: Bob Smith · 42",)),
    )
    assert reidentify(delete, live, {"v1": "Ann Lee", "v2": "7"}).element.id == "x2"  # type: ignore[union-attr]
    assert reidentify(link, live, {"v1": "Ann Lee", "v2": "7"}).element.id == "x1"  # type: ignore[union-attr]
    assert reidentify(link, live, {"v1": "Ann Lee", "v2": "42"}).candidates == 0


def test_a_missing_binding_is_no_match() -> None:
    target = SemanticTarget(role="button", name="Delete {v1}")
    live = _page(PageElement(id="1", role="button", name="Delete {v1}"))
    found = reidentify(target, live, {})
    assert found.element is None and found.candidates == 0 and "v1" in found.reason
    assert reidentify(target, live, {"v1": "  "}).element is None


def test_values_are_replaced_word_bounded_only() -> None:
    element = PageElement(id="1", role="link", name="Page 10", href="/list?page=10")
    target = describe_target(element, {"v1": "1"})
    assert target.name == "Page 10" and target.href == "/list?page=10"


def test_longest_value_first_and_no_value_inside_a_reference() -> None:
    element = PageElement(id="1", role="button", name="Pay Bob Smith v1")
    target = describe_target(element, {"a": "Bob", "b": "Bob Smith", "c": "v1"})
    assert target.name == "Pay {b} {c}"


def test_literal_braces_survive_a_round_trip() -> None:
    element = PageElement(id="1", role="button", name="Use {code}")
    target = describe_target(element)
    assert target.name == "Use {{code}}" and target.references() == set()
    assert reidentify(target, _page(element)).element is not None
    assert target.describe() == 'button "Use {code}"'


def test_values_with_regex_metacharacters() -> None:
    element = PageElement(id="1", role="button", name="Buy C++ (x2) for $5.00")
    target = describe_target(element, {"v1": "C++ (x2)", "v2": "$5.00"})
    assert target.name == "Buy {v1} for {v2}"
    live = _page(PageElement(id="z", role="button", name="Buy A.B* for $7.25"))
    assert reidentify(target, live, {"v1": "A.B*", "v2": "$7.25"}).element is not None


def test_random_layouts_of_the_same_form_always_hit_uniquely() -> None:
    rng = random.Random(15)
    target = describe_target(_form().element("2"))  # type: ignore[arg-type]
    for _ in range(50):
        order = tuple(rng.sample(range(4), 4))
        ids = tuple(str(rng.randrange(10_000)) + s for s in "abcd")
        found = reidentify(target, _form(ids=ids, order=order))
        assert found.element is not None and found.element.id == ids[1]


def test_a_row_naming_a_variable_keeps_only_its_kind_and_references() -> None:
    def row(n: int, email: str) -> tuple[PageElement, PageElement]:
        text = f"row: Patient {n} · {email} · last visit 2026-0{n % 9 + 1}-01"
        return (
            PageElement(id=f"l{n}", role="link", name=f"Patient {n}", href=f"/patients/{n}", container=(text,)),
            PageElement(id=f"e{n}", role="button", name="Edit", container=(text,)),
        )

    recorded = _page(*row(1, "p1@mail.test"), *row(2, "p2@mail.test"))
    edit = describe_target(recorded.element("e1"), {"v1": "Patient 1"})  # type: ignore[arg-type]
    link = describe_target(recorded.element("l1"), {"v1": "Patient 1"})  # type: ignore[arg-type]
    assert edit == SemanticTarget(role="button", name="Edit", container=("row: …{v1}…",))
    assert link.href is None  # "/patients/1" named the recorded instance, not the role
    live = _page(*row(12, "x@y.test"), *row(1, "new@mail.test"), *row(3, "z@y.test"))
    assert reidentify(edit, live, {"v1": "Patient 12"}).element.id == "e12"  # type: ignore[union-attr]
    assert reidentify(edit, live, {"v1": "Patient 1"}).element.id == "e1"  # type: ignore[union-attr]  # not "Patient 12"
    assert reidentify(link, live, {"v1": "Patient 3"}).element.id == "l3"  # type: ignore[union-attr]
    assert reidentify(edit, live, {"v1": "Patient 7"}).candidates == 0


def test_a_row_without_variables_is_compared_whole() -> None:
    target = describe_target(PageElement(id="1", role="button", name="Edit", container=("row: Bob · b@x.test",)))
    assert target.container == ("row: Bob · b@x.test",)
    live = _page(PageElement(id="9", role="button", name="Edit", container=("row: Bob · new@x.test",)))
    assert reidentify(target, live).candidates == 0


def test_a_link_whose_href_holds_the_variable_keeps_it() -> None:
    element = PageElement(id="1", role="link", name="Open Bob", href="/people/bob")
    assert describe_target(element, {"v1": "bob"}).href == "/people/{v1}"
