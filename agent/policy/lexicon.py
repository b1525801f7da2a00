"""The words of the policy's goal grammar, as data.

Each intent of :mod:`agent.policy.frames` is said with one of these verb phrases; adding a
synonym is a change here, not in the grammar. Phrases are matched on folded text
(lower-case, accents removed), longest first, as whole words.
"""

from __future__ import annotations

from typing import Final

from verification.contract.wording import RECORD_NOUNS

__all__ = ["RECORD_NOUNS"]  # the policy's lexicon, with the verifier's record nouns

# Intent → the verb phrases that express it at the start of a clause.
INTENT_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "login": ("log in", "login", "log on", "log into", "sign in", "signin", "sign into"),
    "search": ("search for", "search", "look up", "look for", "query for"),
    "on": ("turn on", "switch on", "toggle on", "enable", "tick"),
    "off": ("turn off", "switch off", "toggle off", "disable", "untick"),
    "record": (
        "delete", "remove", "edit", "deactivate", "activate", "archive", "unarchive", "approve", "reject",
        "suspend", "block", "unblock", "restore", "duplicate", "reply to", "forward", "view",
    ),
}  # fmt: skip
# "turn X on", "switch X off": the particle after the object.
TOGGLE_VERBS: Final[tuple[str, ...]] = ("turn", "switch", "toggle", "set")
# Nouns that name a record of a list that is a message: "the email from Ana", "the information
# Ana sent you" (agent.policy.record_frames).
MESSAGE_NOUNS: Final[frozenset[str]] = frozenset(
    "email e-mail mail message information note ticket post comment thread conversation letter".split()
)
# "click the trash icon to *delete* the email": what an icon is clicked for.
RECORD_ACTIONS: Final[tuple[str, ...]] = ("delete", "remove", "trash", "star", "flag", "mark", "archive")
# Record verbs whose button is named by another word on most sites.
RECORD_BUTTON: Final[dict[str, str]] = {"reply to": "reply"}
# Nouns after a possessive that only say which record, "Chen Wei's account": RECORD_NOUNS, shared
# with the verifier (which also looks for "the file report.pdf" as "report.pdf").
# Record verbs that open a form: the values set after them are saved by the form's commit.
EDIT_VERBS: Final[frozenset[str]] = frozenset({"edit"})

# Slot keywords of a login: what names the user, what names the secret.
USER_WORDS: Final[tuple[str, ...]] = ("username", "user name", "user", "login", "email", "e-mail", "account")
SECRET_WORDS: Final[tuple[str, ...]] = ("password", "passcode", "pin")
# Words that name a secret: the value a goal binds to one ("password is x", "PIN 4821",
# "API key sk-…") is kept sealed and masked everywhere (agent.secrets), and so is a value
# typed into a field whose label says one.
SECRET_NAMES: Final[tuple[str, ...]] = (
    "password", "passcode", "passphrase", "passwd", "pwd", "pin", "pin code", "secret", "secret key", "token",
    "access token", "api token", "api key", "private key", "card number", "credit card", "credit card number",
    "debit card", "debit card number", "cvv", "cvc", "cvv2", "security code", "one-time code", "otp",
)  # fmt: skip

# Words that only stand for the person or record already named ("set *her* role").
PRONOUNS: Final[frozenset[str]] = frozenset("her his their its my your our".split())

# A clause that only commits the form: "save", "submit the form", "save the settings".
COMMIT_VERBS: Final[tuple[str, ...]] = ("save", "submit", "confirm", "apply", "send", "publish", "post")
COMMIT_OBJECTS: Final[frozenset[str]] = frozenset(
    "it form settings changes preferences page profile details order request them everything "
    "message email mail reply comment post review feedback application invitation invite response report survey".split()
)
# "look up X in the catalog": places that only say the search is the site's own.
SEARCH_PLACES: Final[frozenset[str]] = frozenset("catalog catalogue store shop site website portal app page".split())

# Separators of a menu path: "Select File > Export > PDF".
MENU_PATH_SEPARATORS: Final[tuple[str, ...]] = (">", "›", "→", "»")

# What a goal can ask that the page does not give and the policy never does itself: the
# reason a no-model task declines (NEEDS_MODEL) → the words that ask for it. Phrases are
# whole words of the folded goal.
NEEDS_MODEL: Final[dict[str, tuple[str, ...]]] = {
    "arithmetic": (
        "solve", "calculate", "compute", "math", "maths", "arithmetic", "equation", "sum of", "add up",
        "multiply", "divide", "subtract", "average", "odd or even", "even or odd",
    ),
    "a comparison of values on the page": (
        "cheapest", "most expensive", "priciest", "greatest", "largest", "biggest", "smallest", "highest",
        "lowest", "shortest", "longest", "fastest", "slowest", "best", "worst", "compare", "nearest", "closest",
    ),
    "a guess": ("guess", "figure out", "work out"),
    "judging what words mean": (
        "similar to", "synonym", "synonyms", "antonym", "antonyms", "opposite of", "related to", "rhymes with",
    ),
}  # fmt: skip

# The controls of a calendar that move it a month back or forward (accessible name or title).
CALENDAR_PREVIOUS: Final[frozenset[str]] = frozenset(
    {"prev", "previous", "prev month", "previous month", "<", "‹", "«", "<<", "◀", "←"}
)
CALENDAR_NEXT: Final[frozenset[str]] = frozenset({"next", "next month", ">", "›", "»", ">>", "▶", "→"})

# Nouns that name an attribute of a person or record: "the phone number of Ana Silva" and
# "Ana Silva's email" point at a value on the page (read it, or decline) — unlike "The Lord
# of the Rings", which is a value.
ATTRIBUTE_NOUNS: Final[frozenset[str]] = frozenset(
    """phone number email e-mail address name title price cost id code total amount value age date time username
    password role status department city country zip postcode company balance score rating salary position
    extension ext mobile fax website url handle account""".split()
)

# Controls that dismiss a popup or modal the goal is not about.
DISMISS_NAMES: Final[frozenset[str]] = frozenset(
    {"x", "×", "✕", "close", "dismiss", "no thanks", "not now", "maybe later", "skip", "cancel", "got it", "close dialog"}
)
# Phrases that only say how a target is looked for, never what to do: "switch between the
# tabs to find …", "look through the tabs", "open the sections to find", "scroll down to
# find", "browse the pages to find". An exploring verb, the places looked through, then a
# purpose ("to find"); the exploration itself (explore.py) opens each tab / section / page once.
EXPLORE_VERBS: Final[tuple[str, ...]] = (
    "switch between", "switch through", "switch", "look through", "look in", "look at", "go through", "browse",
    "browse through", "click through", "flip through", "page through", "cycle through", "navigate through",
    "search", "search through", "check", "open", "expand", "scroll", "scroll through", "scroll down",
    "scroll down through", "dig through", "explore", "visit",
)  # fmt: skip
EXPLORE_PLACES: Final[frozenset[str]] = frozenset(
    "tab tabs section sections panel panels page pages accordion accordions header headers heading headings "
    "menu menus list lists result results item items entry entries category categories folder folders".split()
)
EXPLORE_PURPOSES: Final[tuple[str, ...]] = ("find", "locate", "look for", "see", "reach", "get to", "spot", "discover")
# Verbs that go through several places by themselves: "look through the tabs and click X"
# says how even without "to find" (the places are plural).
EXPLORE_TRAVERSALS: Final[tuple[str, ...]] = (
    "switch between", "look through", "go through", "browse", "browse through", "click through", "flip through",
    "page through", "cycle through", "scroll through", "dig through", "search through",
)  # fmt: skip

# Controls that turn to the next page of a paged list (with numbered page links beside them).
PAGER_NEXT: Final[frozenset[str]] = frozenset({"next", "next page", ">", "›", "»", "→", "older", "more results"})

# Widgets that take a number or a position: "select 7 with the slider", "use the spinner to
# set 5", "move the slider to 40". A value given *with* one of these is set on it.
VALUE_WIDGETS: Final[tuple[str, ...]] = ("slider", "spinner", "range", "stepper", "spin box", "spinbox", "dial", "knob")

# Words with which a page says a commit worked. When the only change after a commit is a
# new message, the message must say one of these to count as its result ("Settings saved");
# "Choose a country from the list" is an answer, but not proof that the work was done.
SUCCESS_WORDS: Final[frozenset[str]] = frozenset(
    """saved success successful successfully thank thanks done updated created added submitted sent complete
    completed confirmed welcome booked ordered placed deleted removed archived published scheduled registered
    subscribed uploaded imported exported changed applied accepted approved invited""".split()
)

# Autocomplete: where a goal says suggestions come from ("choose "Paris" from the suggestions",
# "select "Berlin" in the autocomplete"), and nouns that name the item but not its field
# ("enter an *item* that starts with …"; "pick a *country* …" names the Country field).
SUGGESTION_SOURCES: Final[tuple[str, ...]] = (
    "suggestions", "suggestion", "suggestion list", "suggested items", "autocomplete", "auto-complete", "autocompletion",
    "autosuggest", "typeahead", "type-ahead", "completions", "dropdown suggestions", "matches",
)  # fmt: skip
SUGGESTION_GENERIC_NOUNS: Final[frozenset[str]] = frozenset(
    "item value entry option one word thing suggestion result term text tag string".split()
)

# A record's own actions on a feed or list (a post, a row): said as a verb ("Like the post from
# @leo", "Mute @leo") or as a control to click ("For the user @leo, click "Mute"") — see
# agent.policy.feed_frames. Verb → the word that names its control.
FEED_ACTIONS: Final[dict[str, str]] = {
    "like": "like", "unlike": "unlike", "retweet": "retweet", "repost": "repost", "share": "share",
    "mute": "mute", "unmute": "unmute", "block": "block", "unblock": "unblock", "report": "report",
    "follow": "follow", "unfollow": "unfollow", "bookmark": "bookmark", "pin": "pin", "unpin": "unpin",
    "hide": "hide", "reply to": "reply", "favorite": "favorite", "favourite": "favourite",
}  # fmt: skip
# Nouns that name a record of a feed: "the post by @ana", "@ana's tweet", "the user @leo".
FEED_NOUNS: Final[frozenset[str]] = frozenset(
    "post tweet status update story photo comment reply message entry item row card record user account profile "
    "author".split()
)
# Actions on the record's owner, not on one of their posts: when several entries belong to
# the owner the goal names, any one of them will do (muting @leo from any of @leo's posts).
OWNER_ACTIONS: Final[frozenset[str]] = frozenset("mute unmute block unblock follow unfollow".split())
# A record's overflow control, which opens its menu of further actions (accessible name,
# text, title or class words as the page script names it).
OVERFLOW_NAMES: Final[frozenset[str]] = frozenset(
    {"more", "more options", "more actions", "options", "actions", "menu", "kebab", "ellipsis", "overflow", "dots",
     "⋯", "…", "...", "⋮", "︙", "•••", "···", "open menu", "show more options", "more menu"}
)  # fmt: skip

# Quantities of a shop or order form, set with a stepper or a number field (agent.policy.order_frames).
QUANTITY_WORDS: Final[dict[str, str]] = {
    "one": "1", "a": "1", "an": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10",
}  # fmt: skip
# The page's own button that places the order once the quantities are set.
ORDER_VERBS: Final[tuple[str, ...]] = ("order", "buy", "purchase")

# Actions that delete, spend, send or end something, that no one can take back: a control
# whose label says one is never clicked unless the goal asks for it (agent/destructive.py) —
# the task asks the user first. Each phrase (whole words of the control's label) → the words
# of a goal that ask for it ("Delete the email from Bob" asks for its trash icon; "Forward …"
# and "Reply …" for Send). Words the policy's own contract names count as asked too: a
# frame's implied step (the Send of a forward) is the goal's.
_DELETING: Final = frozenset("delete remove erase wipe trash discard destroy purge empty".split())
_PAYING: Final = frozenset("pay purchase buy order checkout".split())
_SENDING: Final = frozenset("send forward reply submit post share transfer".split())
_ENDING: Final = frozenset("cancel unsubscribe terminate end close delete remove".split())
DESTRUCTIVE: Final[dict[str, frozenset[str]]] = {
    "delete": _DELETING, "remove": _DELETING, "erase": _DELETING, "wipe": _DELETING, "trash": _DELETING,
    "destroy": _DELETING, "purge": _DELETING, "discard": _DELETING, "empty trash": _DELETING, "empty bin": _DELETING,
    "pay": _PAYING, "purchase": _PAYING, "buy": _PAYING, "place order": _PAYING, "checkout": _PAYING,
    "check out": _PAYING, "order now": _PAYING,
    "transfer": frozenset({"transfer", "send", "move", "pay"}), "send": _SENDING,
    "cancel subscription": _ENDING, "cancel order": _ENDING, "cancel account": _ENDING,
    "cancel membership": _ENDING, "cancel plan": _ENDING, "close account": _ENDING, "close my account": _ENDING,
    "unsubscribe": _ENDING, "deactivate": frozenset({"deactivate", "disable", "suspend"}),
    "revoke": frozenset({"revoke", "remove"}), "sign out of all": frozenset({"sign", "log", "logout", "signout"}),
    "log out of all": frozenset({"sign", "log", "logout", "signout"}),
}  # fmt: skip

# The nouns that say what kind of control a label is on ("the Save button", "the Help link").
CONTROL_NOUNS: Final[frozenset[str]] = frozenset({"button", "btn", "link"})

# Several fields filled with one verb (agent.policy.field_lists): "type Ada into First name,
# Lovelace into Last name", "fill in the name with Ann, the city with Oslo", "fill the form:
# Name "Ann", City "Oslo"", "choose Red in Colour, Large in Size".
FILL_VERBS: Final[tuple[str, ...]] = ("type", "enter", "input", "write", "put", "key in", "fill in")
# value → field: "Ada into First name", "Ada in First name", "Ada as the first name".
VALUE_TO_FIELD: Final[tuple[str, ...]] = ("into", "in", "as the", "as your", "as my", "as")
CHOOSE_VERBS: Final[tuple[str, ...]] = ("select", "choose", "pick")
# option → list: "Red in Colour", "Large from Size".
OPTION_TO_LIST: Final[tuple[str, ...]] = ("in", "from", "for", "as the", "as")
# field → value: "the first name with Ada".
FIELD_TO_VALUE: Final[tuple[str, ...]] = ("with",)
FORM_FILL_VERBS: Final[tuple[str, ...]] = ("fill in", "fill out", "fill", "complete", "populate")
# "fill the form: …", "fill in the following fields with …": what is filled, said as a whole.
FORM_NOUNS: Final[tuple[str, ...]] = (
    "form", "forms", "fields", "form fields", "following fields", "following", "details", "following details",
    "sign up form", "signup form", "registration form", "contact form",
)  # fmt: skip
# "field value" inside such a form list: "First name "Ada"", "First name: Ada", "Email = a@b.c", "City is Oslo".
FORM_PAIR_LINKS: Final[tuple[str, ...]] = (":", "=", "is", "as")

# Field labels that start with an ordinal word: "First name" is a label, not the first
# element named "name" (agent.policy.goal.parse_target).
ORDINAL_LABELS: Final[frozenset[str]] = frozenset(
    {"first name", "last name", "first names", "last names", "first-name", "last-name", "first line", "second line"}
)
