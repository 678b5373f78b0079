"""What the suites' task variations draw from (@task(variations=...), --mobile-variations): values
every virtual app accepts and shows as typed (plain ASCII letters, digits, spaces and
underscores), none equal to a value a task seeds or declares, so a variation is a task of its own.

A near miss that is a function of the drawn values must stay a near miss for every one of them:
`typo` always changes the word, `other_than` never returns the value it avoids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

# Note titles, checklist names, playlist names, event titles: short phrases, no seeded one.
TITLES = (
    "Groceries",
    "Weekend plans",
    "Book club",
    "Travel ideas",
    "Gym routine",
    "Recipes",
    "Birthday gifts",
    "Garden",
    "Project Atlas",
    "Reading list",
    "Car service",
    "Packing",
)
# One-word titles (a long press on a word selects all of it): files, recordings, renamed notes.
WORDS = ("report", "holiday", "invoice", "budget", "summary", "draft", "minutes", "agenda", "journal", "sketch")
ITEMS = ("Bread", "Apples", "Coffee", "Butter", "Cheese", "Rice", "Tomatoes", "Yogurt", "Honey", "Pasta")
FIRST_NAMES = ("Alice", "Bruno", "Chen", "Daria", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Julia", "Kenji")
MESSAGES = ("see you at 6", "call me back", "running late", "thanks a lot", "on my way", "good night")
ACTIVITIES = ("dentist", "yoga", "shopping", "cinema", "piano lesson", "team lunch", "haircut", "car wash")


def typo(word: str) -> str:
    """`word` with its first two adjacent different letters swapped: always another word."""
    for i in range(len(word) - 1):
        if word[i] != word[i + 1]:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word + word[-1]  # one letter repeated: one more of it


def other_than(rng: random.Random, pool: Sequence[str], value: str) -> str:
    """A value of `pool` that is not `value`."""
    return rng.choice([v for v in pool if v != value])


def phone_number(rng: random.Random) -> str:
    """Nine digits, not starting with 0 (the seeded tasks' number is 123456789)."""
    while True:
        number = str(rng.randint(200_000_000, 999_999_999))
        if number != "123456789":
            return number


def wrong_digit(number: str) -> str:
    """`number` with its last digit changed: another number of the same length."""
    last = int(number[-1])
    return number[:-1] + str((last + 1) % 10)
