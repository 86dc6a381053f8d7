"""Words of a question as tokens, and the phrase forms the lexicon matches against."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.text.vocabulary import english

# A letter-bearing word first, so codes such as "B6" and "9E" stay whole; then numbers.
_TOKEN = re.compile(r"[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?|\d+(?:\.\d+)?|[<>]=?|%|(?<=\d)-(?=\d)")
_THOUSANDS = re.compile(r"(\d+)k")
_MILLIONS = re.compile(r"(\d+)(m|mm|mn|bn)")  # '100m' payroll, '2bn' revenue
_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)")

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100, "twice": 2, "thrice": 3,  # 'at least twice'
}

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]
MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
                       "sept": 9, "oct": 10, "nov": 11, "dec": 12}
WEEKDAYS = {name: [number] for number, name in enumerate(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"], start=1)}
WEEKDAYS.update({"weekend": [6, 7], "weekday": [1, 2, 3, 4, 5], "workday": [1, 2, 3, 4, 5],
                 "business day": [1, 2, 3, 4, 5]})
# Every word that names a part of the calendar, in any of its forms.
CALENDAR_WORDS = frozenset(
    [*MONTHS, *MONTH_ABBREVIATIONS]
    + [word for name in WEEKDAYS for form in (name, name + "s") for word in form.split()]
    + "day days week weeks weekly month months monthly year years yearly hour hours hourly minute minutes "
      "quarter quarters half today tomorrow yesterday morning afternoon evening night noon midnight".split()
)

# The generic function words (vocabulary.yaml `function_words:`); a model adds its own (`SemanticModel.function_words`).
STOPWORDS = frozenset(english()["function_words"])
# Short forms of names ('dept', 'qty', 'techs'): vocabulary.yaml `abbreviations`, for names and questions alike.
ABBREVIATIONS: dict[str, str] = {str(k): str(v) for k, v in english()["abbreviations"].items()}
# Words of units an answer is given in ('minutes', 'mi', '%'): vocabulary.yaml `units`.
UNIT_WORDS = frozenset(str(w) for w in english()["units"])


@dataclass(frozen=True)
class Token:
    text: str  # as typed (codes are matched case-sensitively)
    low: str
    number: float | None = None
    aside: bool = field(default=False, compare=False)  # said in parentheses: a restatement or a definition


# 'jan-jun', 'March - May': a span of months, read as 'jan to jun'
_MONTH_NAME = "|".join(sorted([*MONTHS, *MONTH_ABBREVIATIONS], key=len, reverse=True))
_MONTH_SPAN = re.compile(rf"\b({_MONTH_NAME})\s*[-\u2013]\s*({_MONTH_NAME})\b", re.I)


def or_more(text: str) -> str:
    """'30+ min late', '300+ seats', '1h+ late': a number (and its unit) then '+' is that much or more, never an
    addition ('2 + 2')."""
    # '1h+ late' reads as '1 or more h late', the unit after the comparison as in '60+ min late'
    return re.sub(r"(?<=\d)([A-Za-z]{0,4})\+(?=\s*[A-Za-z]|\s*$)",
                  lambda m: " or more" + (" " + m.group(1) if m.group(1) else ""), text)


def tokenize(text: str) -> list[Token]:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = _MONTH_SPAN.sub(r"\1 to \2", text)
    text = re.sub(r"(?<=[A-Za-z])\s*(?:->|\u2192)\s*(?=[A-Za-z])", " to ", text)  # 'jfk->lax': from one to the other
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 1,000 -> 1000
    text = re.sub(r"(?<=\w)\s+[+&]\s+(?=\w)", " and ", text)  # 'flights + avg delay': a list, as 'and' says
    text = or_more(text)
    tokens = []
    depth = [0] * (len(text) + 1)  # how many parentheses are open at each character
    for i, char in enumerate(text):
        depth[i + 1] = max(0, depth[i] + (char == "(") - (char == ")"))
    for match in _TOKEN.finditer(text):
        word = match.group(0)
        aside = depth[match.start()] > 0
        ordinal = _ORDINAL.fullmatch(word.lower())
        thousands = _THOUSANDS.fullmatch(word.lower())
        if word.lower().endswith("'s") and len(word) > 2:  # "JetBlue's flights": the name, then the possessive
            tokens.append(Token(word[:-2], word[:-2].lower(), aside=aside))
            tokens.append(Token("'s", "'s", aside=aside))
        elif thousands:  # "20k flights"
            tokens.append(Token(word, word.lower(), float(thousands.group(1)) * 1000, aside=aside))
        elif millions := _MILLIONS.fullmatch(word.lower()):
            scale = 1e9 if millions.group(2) == "bn" else 1e6
            tokens.append(Token(word, word.lower(), float(millions.group(1)) * scale, aside=aside))
        elif ordinal:
            tokens.append(Token(word, word.lower(), float(ordinal.group(1)), aside=aside))
        elif re.fullmatch(r"\d+(?:\.\d+)?", word):
            tokens.append(Token(word, word, float(word), aside=aside))
        else:
            low = word.lower()
            tokens.append(Token(word, low, float(NUMBER_WORDS[low]) if low in NUMBER_WORDS else None, aside=aside))
    return tokens


def phrase(text: str) -> tuple[str, ...]:
    """A lexicon phrase in token form, lower case."""
    return tuple(t.low for t in tokenize(text))
