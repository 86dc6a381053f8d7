"""The words that make a message in a thread work on the previous reading (dialogue_words.yaml):
found and taken out before the rest of the message is read. Light on purpose: the router uses it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from agent.yamlload import safe_load

_WORDS_FILE = Path(__file__).parents[1] / "dialogue_words.yaml"


@lru_cache(maxsize=1)
def dialogue_words() -> dict[str, Any]:
    words: dict[str, Any] = safe_load(_WORDS_FILE.read_text())
    return words


def phrase(words: list[str]) -> str:
    """A regex for any of `words` as whole words, longest first."""
    ordered = sorted({w.lower() for w in words}, key=len, reverse=True)
    return r"(?:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in ordered) + r")"


def has(text: str, words: list[str]) -> re.Match[str] | None:
    return re.search(rf"(?<![\w']){phrase(words)}(?![\w'])", text, re.I)


@dataclass
class Cues:
    text: str  # what is left for the question reader
    lead_in: bool = False
    replace: bool = False
    add: bool = False
    compare: bool = False
    whole_period: bool = False
    all_rows: bool = False
    limit: int | None = None
    descending: bool | None = None
    polarity: str | None = None  # 'best' or 'worst': the direction depends on the measure
    chart: str | None = None
    dropped: list[str] = field(default_factory=list)  # the words after 'drop', 'without', 'all'
    every: list[str] = field(default_factory=list)  # of those, the ones after 'every', 'all' ('every hour')
    row: int | None = None  # 'the 2nd one': the previous answer's row at that place (1 first, -1 last)
    row_ranks: bool = False  # said 'top' or 'bottom': of an answer in no order, the first of a ranking
    drop_all: bool = False  # 'drop the filters'
    things: bool = False  # 'which of them': the previous answer's things
    pointed: list[str] = field(default_factory=list)  # the word after 'that', 'there': kept as it was
    pointer: bool = False
    one_thing: bool = False  # 'did it': one thing is pointed at, never several
    things_count: int | None = None  # 'those 3 carriers': how many things are pointed at
    place: bool = False  # 'there': the previous answer's place
    back: bool = False  # 'go back to the previous one': the reading before the last one is edited
    percent: bool = False  # 'as a %'
    percent_of_each: bool = False  # 'as a % of each airline's flights': of each group's own rows, not of all
    reverse: bool = False  # 'flip it': the ranking the other way round
    ordered: bool = False  # 'worst first': every row, in that order (`descending`, `polarity`)

    @property
    def any(self) -> bool:
        return any([self.lead_in, self.replace, self.add, self.compare, self.whole_period, self.all_rows,
                    self.row is not None,
                    self.limit is not None, self.chart, self.dropped, self.drop_all, self.things, self.pointer,
                    self.back, self.percent, self.reverse, self.ordered])


_PLACE_POINTER = r"(?<!were )(?<!are )(?<!was )(?<!is )(?<![\w']){}(?![\w'])"


def _cut(text: str, match: re.Match[str]) -> str:
    return (text[: match.start()] + " " + text[match.end():]).strip()


def without_lead_in(message: str) -> str:
    """'ok then avg dep delay … vs not' -> 'avg dep delay … vs not': only the words a message opens with to go
    on from the last turn taken out, every cue of the question itself kept."""
    lead = re.compile(rf"^{phrase(dialogue_words()['lead_ins'])}(?![\w'])[\s,]*", re.I)
    text = " ".join(message.split())
    while (m := lead.match(text)) and m.end() > 0:
        text = text[m.end():]
    return text


def find_cues(message: str) -> Cues:
    words = dialogue_words()
    text = " ".join(message.replace("\u2019", "'").split())
    # 'exclude hawaiian, it skews everything': the reason given after a comma asks nothing
    text = re.sub(rf"(?<=\w)\s*[,;(-]+\s*{phrase(words['reason_clauses'])}(?![\w']).*$", "", text, flags=re.I)
    text = re.sub(r"[?!.,;:]+(\s|$)", r" \1", text).strip()
    cues = Cues(text)
    while m := has(cues.text, words["kept_words"]):  # 'same period for EWR': the period stays, nothing to read
        cues.lead_in, cues.text = True, _cut(cues.text, m)
    if m := has(cues.text, words["back_words"]):
        cues.back, cues.text = True, _cut(cues.text, m)
    lead = re.compile(rf"^{phrase(words['lead_ins'])}(?![\w'])\s*", re.I)
    while (m := lead.match(cues.text)) and m.end() > 0:
        cues.lead_in, cues.text = True, cues.text[m.end():].strip()
    places = {str(k).lower(): int(v) for k, v in words["row_places"].items()}
    if m := re.search(rf"(?<![\w'])(?:the\s+)?({phrase(list(places))})\s+{phrase(words['row_nouns'])}(?:\s+(?:on|in|of)\s+"
                      rf"(?:that|the|this)\s+list)?(?![\w'])", cues.text, re.I):  # 'the 2nd one', 'the last row'
        cues.row, cues.things = places[m.group(1).lower()], True
        cues.row_ranks = m.group(1).lower() in words["top_words"] + words["bottom_words"]
        cues.text = (cues.text[: m.start()] + " {things} " + cues.text[m.end():]).strip()
    number_words = {str(k).lower(): int(v) for k, v in words["number_words"].items()}
    number = r"(\d+|" + "|".join(map(re.escape, number_words)) + r")"
    for key, down in (("top_words", True), ("bottom_words", False), ("best_words", None), ("worst_words", None)):
        # 'at least 50', 'at most 3' compare with a number: no ranking
        m = re.search(rf"(?<![\w'])(?<!\bat ){phrase(words[key])}\s+{number}(?![\w'])",
                      cues.text, re.I)
        if m:
            count = m.group(1).lower()
            cues.limit = int(count) if count.isdigit() else number_words[count]
            cues.descending = down
            cues.polarity = key.removesuffix("_words") if down is None else None
            cues.text = _cut(cues.text, m)
            break
    for key, down in (("top_words", True), ("bottom_words", False), ("best_words", None), ("worst_words", None)):
        # 'worst first', 'highest first': the order alone, every row kept
        m = re.search(rf"(?<![\w']){phrase(words[key])}\s+first(?![\w'])", cues.text, re.I)
        if cues.limit is None and m:
            cues.ordered, cues.descending = True, down
            cues.polarity = key.removesuffix("_words") if down is None else None
            cues.text = _cut(cues.text, m).strip(" ,")
            break
    else:
        # 'and the best?', 'the worst one', 'which is worst': a ranking word said alone keeps the one row it
        # ranks first
        for key, down in (("top_words", True), ("bottom_words", False), ("best_words", None), ("worst_words", None)):
            # 'which one is the top', 'which one had the most', 'which one … the most' (its verb read before)
            if re.fullmatch(rf"(?:(?:which|what|who)(?:\s+one)?(?:\s+(?:is|was|are|were|'s|had|has|did))?\s+)?(?:the\s+)?"
                            rf"{phrase(words[key])}(?:\s+one)?", cues.text, re.I):
                cues.limit, cues.descending, cues.text = 1, down, ""
                cues.polarity = key.removesuffix("_words") if down is None else None
                break
    if m := has(cues.text, words["reverse_words"]):
        cues.reverse, cues.text = True, _cut(cues.text, m)
    if m := has(cues.text, words["percent_words"]):
        cues.percent, cues.text = True, _cut(cues.text, m)
        # 'as a % of all planes': what it is a percentage of (everything the answer is a part of), no condition dropped
        cues.text = re.sub(r"^\s*of\s+(?:all|every|the\s+total|total)\b.*$", "", cues.text, flags=re.I).strip()
        cues.percent_of_each = bool(re.search(rf"(?<![\w'])of\s+{phrase(words['each_words'])}\s", cues.text, re.I))
    if m := has(cues.text, words["all_rows_words"]):
        cues.all_rows, cues.text = True, _cut(cues.text, m)
    if m := has(cues.text, words["whole_period"]):
        cues.whole_period, cues.text = True, _cut(cues.text, m)
    if m := re.search(rf"(?<![\w']){phrase(words['whole_of_a_year'])}\s+(?=(?:19|20)\d\d(?![\w']))", cues.text, re.I):
        cues.whole_period, cues.text = True, _cut(cues.text, m)  # 'all of 2013': the year is read on its own
    for kind, phrases in words["charts"].items():
        if m := re.search(rf"(?<![\w'])(?:as\s+)?(?:an?\s+)?{phrase(phrases)}(?:\s+{phrase(words['chart_words'])})?"
                          rf"(?![\w'])", cues.text, re.I):
            if kind != "none" or re.search(r"\b(table|numbers|chart)\b", m.group(0), re.I):
                cues.chart, cues.text = kind, _cut(cues.text, m)
                break
    drop = re.search(rf"(?<![\w']){phrase(words['drop_words'])}\s+(?:the\s+|that\s+|this\s+|any\s+)?(.*?)"
                     rf"(?:\s+{phrase(words['condition_words'])})?$", cues.text, re.I)
    if drop:
        # 'drop the delta filter and make it a bar chart': what is dropped ends where another request begins
        said = re.split(rf"\s*(?:[,;]|\s(?:and|then))\s+(?={phrase(words['request_verbs'])}(?![\w']))",
                        " " + drop.group(1) + " ", maxsplit=1, flags=re.I)[0].strip()
        said = re.sub(rf"\s+{phrase(words['condition_words'])}$", "", said, flags=re.I).strip()
        if not said or re.fullmatch(phrase(words["condition_words"]), said, re.I):
            cues.drop_all = True
        else:
            cues.dropped.append(said)
        cues.text = cues.text[: drop.start()].strip()
    every = re.search(rf"(?:for\s+|across\s+|over\s+)?(?<![\w']){phrase(words['every_words'])}\s+(\w+)", cues.text,
                      re.I)
    if every:
        cues.dropped.append(every.group(1))
        cues.every.append(every.group(1))
        cues.text = _cut(cues.text, every)
    # 'show every hour' after the worst hour: each of what the answer is by (the follow-up tells, by the model)
    each = re.fullmatch(r"(?:(?:show|list|give)(?:\s+me)?\s+)?(?:every|each)\s+(\w+)", cues.text, re.I)
    if each:
        cues.every.append(each.group(1))
    if cues.row is None and (m := re.search(rf"(?<![\w']){phrase(words['things_at_end'])}$", cues.text, re.I)):
        # a figure asked for each row shown goes beside what the rows show
        cues.things, cues.add, cues.text = True, True, cues.text[: m.start()].strip() + " for each {things}"
    elif cues.row is None and (m := has(cues.text, words["things"])):
        cues.things = True
        counted = re.match(rf"^\s*{number}(?![\w'])", cues.text[m.end():], flags=re.I)
        if counted is not None:  # 'those 3 carriers': the answer that had three of them
            said = counted.group(1).lower()
            cues.things_count = int(said) if said.isdigit() else number_words.get(said)
        rest = re.sub(rf"^\s*{number}(?![\w'])", "", cues.text[m.end():], flags=re.I)  # 'of those 3', 'those two': they are those
        cues.text = (cues.text[: m.start()] + " {things} " + rest).strip()
        # 'avg arr delay for each of them': a figure for each row shown goes beside what the rows show
        cues.add = cues.add or bool(re.search(r"(?<![\w'])each\s+\{things\}", cues.text, re.I))
    # 'there' at the end or before a time, not 'were there': a place pointed at
    if m := re.search(_PLACE_POINTER.format(phrase(words["place_pointers"])), cues.text, re.I):
        cues.pointer, cues.place, cues.text = True, True, _cut(cues.text, m)
    for m in list(re.finditer(rf"(?<![\w']){phrase(words['pointers'])}\s+(\w+)", cues.text, re.I)):
        cues.pointer = True
        cues.pointed.append(m.group(1).lower())
    if m := re.search(rf"(?<![\w']){phrase(words['pointers_alone'])}$", cues.text, re.I):
        cues.pointer, cues.text = True, cues.text[: m.start()].strip()
    # 'which airlines fly it and how many flights each': 'it' ending a clause is the previous answer, as at the end
    elif m := re.search(r"(?<![\w'])(?<!\bis\s)(?<!\bwas\s)(?<!\bmake\s)it(?=\s+and\b)", cues.text, re.I):
        cues.pointer, cues.text = True, (cues.text[: m.start()] + cues.text[m.end():]).strip()
    elif m := re.search(rf"(?<![\w'])(?:{phrase(words['doing_it'])})\s+(it)(?=\s+\w)", cues.text, re.I):
        # 'which routes did it fly': the thing that does it, as 'it' at the end
        cues.pointer, cues.one_thing, cues.text = True, True, (cues.text[: m.start(1)] + cues.text[m.end(1):]).strip()
    if cues.pointed:
        cues.text = re.sub(rf"(?<![\w']){phrase(words['pointers'])}\s+", " ", cues.text, flags=re.I).strip()
    cues.text = re.sub(rf"(?<![\w']){phrase(words['fillers'])}(?![\w'])", " ", cues.text, flags=re.I)
    cues.text = " ".join(cues.text.split())
    swap = re.fullmatch(rf"(?:.*?\s)?{phrase(words['swap_words'])}\s+(?:the\s+)?(.+?)\s+{phrase(words['swap_joins'])}"
                        rf"\s+(.+)", cues.text, re.I)
    if swap:  # 'swap jetblue for southwest': the new one, put in place of what the reading has
        cues.replace, cues.text = True, swap.group(swap.lastindex or 0)
    if m := has(cues.text, words["compare_words"]):
        cues.compare, cues.text = True, _cut(cues.text, m)
    if m := has(cues.text, words["replace_words"]):
        cues.replace, cues.text = True, _cut(cues.text, m)
    while m := has(cues.text, words["add_words"]):  # 'add American as well': every one of them
        cues.add, cues.text = True, _cut(cues.text, m)
    return cues


def restarted(message: str) -> str | None:
    """The question after a word that drops the thread's subject ('actually forget that. flights to MIA per
    airline' -> 'flights to MIA per airline'); None when the message says no such thing."""
    words = dialogue_words()
    found = re.match(rf"^\W*(?:(?:actually|ok|okay|no|sorry|hmm|wait|oh)\W+)*{phrase(words['restart_words'])}"
                     rf"(?![\w'])(?:\s*[.,;:!-]+|\s+but)\s*(.*)$", message.strip(), re.I | re.S)
    # ('nvm, …' and 'unrelated but …' start afresh; 'never mind the month' is an edit)
    return found.group(found.lastindex or 0).strip() if found and found.group(found.lastindex or 0).strip() else None


def refers_back(message: str) -> bool:
    """Does the message work on a previous reading (an edit word, or a word pointing back at it)?"""
    return find_cues(message).any


def drops_a_condition(message: str, previous_question: str = "") -> bool:
    """'drop the JFK filter', 'drop the month', or 'drop jfk' after a question that said 'jfk': a change to
    the reading, not to the data."""
    words = dialogue_words()
    if re.search(rf"(?<![\w']){phrase(words['drop_words'])}\b.*\b{phrase(words['condition_words'])}\b", message, re.I):
        return True
    # ('drop the tiny ones, anything under 1000 flights': a comma or a '+' is still a condition's words)
    said = re.fullmatch(rf"\s*{phrase(words['drop_words'])}\s+(?:the\s+|that\s+|this\s+)?([\w' ,+-]+?)\W*", message,
                        re.I)
    asked = set(re.findall(r"[\w'-]+", previous_question.lower()))
    if said and asked and set(re.findall(r"[\w'-]+", said.group(1).lower())) <= asked:
        return True  # what it takes away was said in the question before: a condition of it
    if said and asked and not re.search(rf"\b{phrase(words['storage_nouns'])}\b", said.group(1), re.I):
        return True  # in a thread, 'drop the carrier' takes a condition away; a write names what it drops
    # a time window named alone after the drop word ('drop the month', 'remove the dates') is no table
    return bool(re.search(rf"(?<![\w']){phrase(words['drop_words'])}\s+(?:the\s+|that\s+|this\s+)?"
                          rf"{phrase(words['time_nouns'])}\W*$", message.strip(), re.I))


def going_back(message: str) -> str | None:
    """'go back to the previous one, by month': the rest of the message, to be read against the reading
    before the last one; None when the message does not go back."""
    text = " ".join(message.replace("\u2019", "'").split())
    m = has(text, dialogue_words()["back_words"])
    return None if m is None else _cut(text, m)


def going_back_to(message: str) -> tuple[list[str], str] | None:
    """'go back to the jfk one n split it by airline': the words naming an earlier reading (['jfk']) and the
    rest of the message; None when no earlier reading is named so."""
    words = dialogue_words()
    text = " ".join(message.replace("\u2019", "'").split())
    m = re.search(rf"(?<![\w']){phrase(words['back_to_named'])}\s+([\w' -]+?)\s+{phrase(words['back_to_named_end'])}"
                  r"(?![\w'])", text, re.I)
    if m is None or re.fullmatch(phrase(words["back_words"]), m.group(0), re.I):
        return None  # 'go back to the previous one': the reading before the last, whatever it holds
    named = re.findall(r"[\w']+", m.group(1).lower())
    return (named, _cut(text, m)) if named else None


def empty_words() -> frozenset[str]:
    return frozenset(str(w).lower() for w in dialogue_words()["empty_words"])


def says_every_option(text: str) -> bool:
    """'both', 'all three': a typed answer meaning every option the bot offered."""
    return has(text, dialogue_words()["all_options"]) is not None


def without_every_option(text: str) -> str:
    """The typed answer without its words meaning every option ('both pls, split by airport' -> 'pls, split
    by airport')."""
    m = has(text, dialogue_words()["all_options"])
    return text if m is None else _cut(text, m)


def reply_words() -> frozenset[str]:
    """Words of a typed answer that name no option ('where they …'), with the empty words."""
    return empty_words() | frozenset(str(w).lower() for w in dialogue_words()["reply_words"])


def says_nothing_else(text: str) -> bool:
    """Only empty words left ('just the … pls' once 'sql' is out): nothing for the question reader."""
    return all(w in empty_words() for w in re.findall(r"[\w'-]+", text.lower()))


def pointing_word(message: str) -> str | None:
    """The word pointing at a previous answer's things or place ('those', 'there'), if the message has one."""
    words = dialogue_words()
    if find_cues(message).things and (m := has(message, words["things"])):
        return m.group(0)
    if m := re.search(_PLACE_POINTER.format(phrase(words["place_pointers"])), message, re.I):
        return m.group(0)
    return None


def only_edits(message: str) -> bool:
    """The message only changes a previous reading ('drop the airline filter', 'top 3', 'as a bar chart'):
    once its edit words are out, nothing is left to read as a question."""
    cues = find_cues(message)
    return cues.any and says_nothing_else(cues.text)
