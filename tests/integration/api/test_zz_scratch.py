import json
from tests.integration.api.conftest import Api

def form(values=None, checked=False):
    values = values or {}
    names = ["First name", "Last name", "Email", "Phone", "City"]
    tree = [{"i": str(i + 1), "r": "inp", "n": n, "v": values.get(n, "")} for i, n in enumerate(names)]
    tree.append({"i": "6", "r": "chk", "n": "Subscribe to newsletter", **({"s": ["checked"]} if checked else {})})
    tree.append({"i": "9", "r": "btn", "n": "Submit"})
    return tree

GOAL = 'Set First name to Ada, Last name to Lovelace, Email to ada@example.com, Phone to 555-0100 and City to London, check Subscribe to newsletter, and press Submit'

async def test_scratch(api: Api) -> None:
    first = (await api.interact({"url": "https://x.test/form", "query": GOAL, "interactiveTree": form()})).json()
    print(json.dumps({k: first[k] for k in ("action", "actions", "chainMetadata", "thought")}, indent=1))
    n = len(first["actions"])
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"], "stepIndex": first["stepIndex"]}
    vals = {"First name": "Ada", "Last name": "Lovelace", "Email": "ada@example.com", "Phone": "555-0100", "City": "London"}
    done = (await api.interact({"url": "https://x.test/thanks", "interactiveTree": [{"i": "1", "r": "link", "n": "Home"}],
        "hasSuccess": True, "success_messages": ["Thanks, Ada! Your form was submitted"],
        "lastExecutedActionIndex": n - 1, "lastActionStatus": "success",
        "chainPartialState": {"executedActions": [a["action"] for a in first["actions"]], "totalActionsInChain": n},
        **ids})).json()
    print(json.dumps({k: done.get(k) for k in ("action", "status", "verification", "contract")}, indent=1))
