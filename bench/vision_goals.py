"""Labelled goals for the mode router (True: the goal depends on how the page looks).

TUNE: the phrasings looked at while the lexicon (agent/vision/mode.py) was written.
HELD_OUT: written afterwards and never used to change the lexicon; the bench reports both."""

from __future__ import annotations

TUNE: tuple[tuple[str, bool], ...] = (
    ("Click the gear icon", True),
    ("Click the button in the top right corner", True),
    ("Click the red button", True),
    ("Open the link next to Save", True),
    ("Click the picture of a cat", True),
    ("Press the button that looks like a trash can", True),
    ("Click the logo", True),
    ("Select the option below the search box", True),
    ("Click on the left panel's first link", True),
    ("Choose the green one", True),
    ("Click the user's avatar", True),
    ("Choose the item at the top of the list", True),
    ("Click Save", False),
    ("Select the right answer", False),
    ("There are 2 items left, delete them", False),
    ("Type 'blue' in the color field", False),
    ('Search for "red shoes"', False),
    ("Enter the price below 20", False),
    ("Add a new patient named Jas", False),
    ("Click the 'Top' link", False),
)

HELD_OUT: tuple[tuple[str, bool], ...] = (
    ("Press the blue Submit button at the bottom of the form", True),
    ("Click the magnifying glass icon", True),
    ("Tap the hamburger menu in the upper left", True),
    ("Click the profile photo", True),
    ("Select the star shaped button", True),
    ("Click the button to the right of the email field", True),
    ("Close the popup using the X in the corner", True),
    ("Click the yellow warning banner", True),
    ("Click the thumbnail of the second video", True),
    ("Click the arrow pointing down next to Sort", True),
    ("Click the item that is highlighted", True),
    ("Choose the avatar of Maria", True),
    ("Click on the bottom-left link", True),
    ("Click the green checkmark", True),
    ("Click the button underneath the chart", True),
    ("Hit the cog", True),
    ("Reply to the message at the top of the inbox", True),
    ("Log in with username admin", False),
    ("Open the Billing section", False),
    ("Add 3 apples to the cart", False),
    ("Sort the table by date", False),
    ("Click the Next button", False),
    ("Type 'top secret' into the subject", False),
    ("Set the quantity to 2", False),
    ("Check the remember me box", False),
    ("Go to the last page of results", False),
    ("Select Red from the Color dropdown", False),
    ("Find the right flight for Monday", False),
    ("Delete the draft left over from yesterday", False),
    ("Enter 'left' in the direction field", False),
    ("Download the PDF below", False),
)
