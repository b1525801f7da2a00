"""The words that express a contract's clauses in a goal, and the words that carry no content of
their own — data for :mod:`agent.policy.coverage` (does a contract account for the whole goal?).

One table per concept: filler, the verbs of each clause kind, the verbs of any change and of
any submit, words of one intent, the nouns of element kinds and containers, ordinals, the
words that introduce a name, and the words that mark a part of the goal as the user's reason.
"""

from __future__ import annotations

from typing import Final

FILLER: Final[frozenset[str]] = frozenset(
    """a an the this that these those it its to into onto in on at of for from with without by as and or
    then than after afterwards next also please kindly now just only then when done finished you your
    is are be been being was were will would should can could do does so there here below above
    again all any some one each every both my our me i we us via using use up down
    he him his she her hers they them their theirs
    that's thats it's what's whats there's here's you're we're they're i'm i've we've you've i'd
    thing things stuff really actually while page screen""".split()
)
# The pronouns above name what the rest of the goal names ("make her a viewer"): no content;
# nor do the nouns for "whatever it is" ("the newest thing you have"), nor "page" / "screen"
# ("save it on her profile page": the words before it say which).
# "up"/"down" above are only filler when no scroll clause claims them (scroll is checked first).
VERBS: Final[dict[str, frozenset[str]]] = {
    "click": frozenset(
        "click clicking tap tapping press pressing hit push select selecting choose choosing pick open "
        "activate follow find locate focus".split()
    ),
    "type": frozenset("type typing enter entering input write put fill set".split()),
    "select": frozenset("select choose pick set".split()),
    "press": frozenset("press hit key".split()),
    "hover": frozenset("hover mouse over".split()),
    "navigate": frozenset("go navigate open visit load browse".split()),
    "back": frozenset("go back navigate return previous".split()),
    "scroll": frozenset("scroll up down all way to top bottom very end beginning start of page".split()),
    "scrolled-top": frozenset("scroll up all way to top very beginning start of text page content contents list it".split()),
    "scrolled-bottom": frozenset("scroll down all way to bottom very end of text page content contents list it".split()),
    "checked": frozenset("check tick select choose pick mark enable turn switch on activate add include".split()),
    "unchecked": frozenset("uncheck untick deselect unselect clear disable turn switch off deactivate remove exclude".split()),
    "expanded": frozenset("expand open show unfold".split()),
    "collapsed": frozenset("collapse close hide fold".split()),
    "field_value": frozenset("type enter input write put fill set change update replace correct edit".split()),
    "choice": frozenset("select choose pick set".split()),
    "shown": frozenset("show shows shown display displayed see".split()),
    "message": frozenset("see show message confirmation".split()),
    "url": frozenset("go navigate open visit load browse page".split()),
    "presence": frozenset("see show appear appears disappear disappears".split()),
}
# Any change of state is asked for with these, whatever the control ("make Hannah an admin",
# "move Zoe to Support", "switch the inbox to compact").
CHANGE_VERBS: Final[frozenset[str]] = frozenset(
    "make change update set move switch turn put fix correct upgrade downgrade promote demote".split()
)
# A press that commits a form is what these ask for ("send £25 to Priya" ends on "Confirm payment").
SUBMIT_VERBS: Final[frozenset[str]] = frozenset("send submit save apply confirm".split())
KEEP_WORDS: Final[frozenset[str]] = frozenset("draft drafts later".split())  # "Save draft", "Save for later"
# Commit labels that only move on to the next step ("Continue", "Next", "Search"): nothing is sent yet.
MOVE_ON_WORDS: Final[frozenset[str]] = frozenset("continue next go ok search login add".split())
# How a goal asks for such a press: "then go on to payment", "proceed to checkout".
MOVE_ON_VERBS: Final[frozenset[str]] = frozenset("go continue proceed next move on".split())
# Words a person uses for the same intent, whichever the page's control says ("remove the
# Winter menu" is done with "Delete permanently"). Data: one group per intent.
SAME_INTENT: Final[tuple[frozenset[str], ...]] = (
    frozenset("delete remove trash discard erase".split()),
    frozenset("cancel stop terminate discontinue".split()),  # "stop my standing order" is done with its "Cancel"
    frozenset("require required mandatory compulsory".split()),  # "make 2FA mandatory": "Require two-factor …"
    frozenset("everyone everybody all".split()),  # "for everyone": "… for all users"
    frozenset("buy purchase order".split()),
    frozenset("find search look filter show".split()),  # "show me only my unread mail" is done with a search
    frozenset("publish public".split()),  # "make the Spring menu public"
    frozenset("send email".split()),  # "email Tom my headshot" is done with "Send"
    frozenset("image picture pic photo".split()),
    frozenset("out outbound depart departure departing".split()),  # "out 14 Mar, back 28 Mar"
    frozenset("back return returning".split()),
    frozenset("pay paid payment".split()),  # "mark the invoice paid" is done with "Record payment"
    frozenset("wire transfer".split()),  # "paid by wire": the method "Bank transfer"
    # A period said as an adverb is the period: "monthly" is "Every month".
    frozenset("daily day".split()),
    frozenset("weekly week".split()),
    frozenset("monthly month".split()),
    frozenset("quarterly quarter".split()),
    frozenset("yearly annually annual year".split()),
)
ROLE_NOUNS: Final[dict[str, frozenset[str]]] = {
    "button": frozenset("button buttons btn".split()),
    "link": frozenset("link links hyperlink".split()),
    "textbox": frozenset("field fields textbox textboxes text box boxes input inputs textarea area".split()),
    "checkbox": frozenset("checkbox checkboxes check box boxes".split()),
    "radio": frozenset("radio radios option options button buttons".split()),
    "switch": frozenset("switch toggle".split()),
    "combobox": frozenset("dropdown drop down list select menu combobox".split()),
    "option": frozenset("option options item".split()),
    "tab": frozenset("tab tabs".split()),
    "menuitem": frozenset("menu item entry".split()),
    "treeitem": frozenset("item node folder file".split()),
    "slider": frozenset("slider range".split()),
    "spinbutton": frozenset("spinner spin box spinbox stepper number".split()),
}
# Nouns that say what kind of thing an element is, whatever its role.
ELEMENT_NOUNS: Final[frozenset[str]] = frozenset(
    "element control item entry icon widget option folder file node tile label".split()
)
CONTAINER_NOUNS: Final[frozenset[str]] = frozenset(
    "row line entry record card item tile section panel dialog modal popup window sidebar form table list box named called "
    "labelled labeled titled".split()
)
ORDINAL_WORDS: Final[frozenset[str]] = frozenset("first second third fourth fifth last".split())
# Words that introduce an element's name: "the item labeled Save", "the file named Briana".
NAME_MARKERS: Final[frozenset[str]] = frozenset("named called labelled labeled titled name label text says reading".split())
# A part of the goal that only tells why ("I got married!", ", we don't need it anymore") starts
# with the user as its subject and asks for nothing: no request word, no value.
FIRST_PERSON: Final[frozenset[str]] = frozenset("i i'm im i've ive i'd we we're we've we'd".split())
REQUEST_WORDS: Final[frozenset[str]] = frozenset(
    "want wants wanted need needs needed would like wish must should have has please can could let".split()
)
# "I need …", "we'd like …": a request word after the user as subject only says the rest is
# asked for; these may stand between them ("I really need", "we would also like").
BETWEEN_USER_AND_REQUEST: Final[frozenset[str]] = frozenset("really also still just would do".split())
# "whatever you sell", "the newest thing you have": the site's own catalogue, no requirement.
SECOND_PERSON: Final[frozenset[str]] = frozenset("you u".split())
OFFER_VERBS: Final[frozenset[str]] = frozenset("have has sell sells offer carry stock got".split())
# "my list of payees", "the payee list": a collection beside the records it holds says only where.
COLLECTION_NOUNS: Final[frozenset[str]] = frozenset("list lists table".split())
# "acc no 11223344", "ref nr 7": an abbreviation of "number" right before the number.
NUMBER_ABBREVIATIONS: Final[frozenset[str]] = frozenset("no nr num".split())
# Someone else, or the thing itself, as the subject: "he left in August", "it's ready".
THIRD_PERSON: Final[frozenset[str]] = frozenset("he he's she she's they they're they've it it's".split())
# Words that turn a verb into its opposite: "don't send it yet", "without deleting", "we no longer
# need it" ("don't" is also read as don, t).
NEGATIONS: Final[frozenset[str]] = frozenset("not never without no longer dont don't don t".split())
PRONOUN_OBJECTS: Final[frozenset[str]] = frozenset("it them this that him her these those".split())
# "my birthday is wrong": the user's own record said to be wrong — the request gives the right value.
MY: Final[frozenset[str]] = frozenset("my our".split())
WRONG: Final[frozenset[str]] = frozenset("wrong incorrect outdated misspelled".split())
# Verbs whose meaning is set by a particle a few words on ("take the jacket *off* my wishlist"):
# head → particle → what the pair means. The particle is accounted for with its verb.
PHRASAL_VERBS: Final[dict[str, dict[str, frozenset[str]]]] = {
    "take": {p: frozenset({"remove", "delete"}) for p in ("off", "out", "away")},
    "send": {"off": frozenset({"submit", "send"}), "in": frozenset({"submit", "send"}), "again": frozenset({"resend", "send"})},
    "hand": {"in": frozenset({"submit", "send"})},
    "put": {"in": frozenset({"add"}), "on": frozenset({"add"})},
    "save": {"to": frozenset({"add"})},  # "save the tent to my wishlist"
    "move": {"over": frozenset({"move", "change"})},
    "switch": {"over": frozenset({"change", "move"}), "to": frozenset({"change", "set"})},
    "set": {"up": frozenset({"create", "add", "new"})},
    "look": {"up": frozenset({"search", "find"})},
    "pick": {"up": frozenset({"resume", "continue", "open"})},
}

# Words that say what kind of value follows them: "born 14 March 1985", "expires 09/29",
# "phone (617) 555-0142". Accounted for with the value a clause holds.
VALUE_LABELS: Final[frozenset[str]] = frozenset("born birth dob expires expiry exp expiring valid phone tel mobile cell".split())
