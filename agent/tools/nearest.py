"""The nearest complete readings of a question the reader declined or asked back about.

When words could not be placed (a typo, a word the model lacks, a value the warehouse does not hold),
the person gets, beside the reason, up to MAX_READINGS questions the reader can answer that are
closest to theirs: the question with an unknown value's closest value, with a run of unplaced words
replaced by the closest measure or field, or without those words. Each is offered only when it reads
as a complete question whose SQL compiles, so a button never leads to another refusal.
"""

from __future__ import annotations

import re

from agent.tools import steps
from agent.context import AgentContext
from agent.marks import FOLLOW_UP_MARK
from agent.semantic.nlq.extract import Extraction
from agent.semantic.model.runtime import SemanticModel
from agent.tools.semantic import compile_checked, read_in_worker, read_once, read_question

MAX_READINGS = 3  # buttons a person compares at a glance
MAX_TRIES = 8  # variants read (one worker trip reads them all)
CLOSE = 80  # rapidfuzz WRatio from which unplaced words are spelt like a name ('arival dealy')
_WORD = re.compile(r"[\w'-]+")


async def nearest_readings(ctx: AgentContext, question: str) -> list[str]:
    """Up to MAX_READINGS questions near `question` (its latest message) that read and compile."""
    latest = question.split(FOLLOW_UP_MARK)[-1].strip()
    extraction = (await read_question(ctx, latest))[0]  # the turn's reading, made already
    if extraction.intent is not None:
        return []
    tries = [v for v in dict.fromkeys(_variants(latest, extraction, ctx.semantic)) if v and v != latest][:MAX_TRIES]
    if not tries:
        return []

    async def read() -> list[Extraction]:
        return await read_in_worker(ctx, steps.read_questions, tries)

    readings = await read_once(ctx, (steps.read_questions.__name__, tuple(tries)), read)
    found: list[str] = []
    for variant, reading in zip(tries, readings):
        if reading.intent is None or reading.unknown_values or reading.ambiguous or reading.ignored_words:
            continue
        compiled, _ = compile_checked(ctx, reading.intent)
        if compiled is not None:
            found.append(variant)
        if len(found) == MAX_READINGS:
            break
    return found


def _variants(question: str, extraction: Extraction, model: SemanticModel) -> list[str]:
    """Closest values first, then closest names for unplaced words, then the question without them."""
    variants = []
    for unknown in extraction.unknown_values:
        variants += [_replace(question, unknown.text, s) for s in unknown.suggestions[:MAX_READINGS]]
    runs = _unplaced_runs(question, extraction.ignored_words)
    for start, end in runs:
        variants += [question[:start] + name + question[end:] for name in _closest_names(question[start:end], model)]
    # a question without a word that turns it round, or says how two things compare, is another question
    kept_words = {w.lower() for w in [*model.coverage.get("negations", []), *model.meaning_words]}
    runs = [(start, end) for start, end in runs
            if not {w.lower() for w in _WORD.findall(question[start:end])} & kept_words]
    for start, end in runs:
        variants.append(_tidy(question[:start] + question[end:], model))
    if len(runs) > 1:
        kept = question
        for start, end in reversed(runs):
            kept = kept[:start] + kept[end:]
        variants.append(_tidy(kept, model))
    return variants


def _unplaced_runs(question: str, ignored: list[str]) -> list[tuple[int, int]]:
    """Character spans of consecutive words the reader did not place ('arival dealy')."""
    unplaced = {w.lower() for w in ignored}
    runs: list[tuple[int, int]] = []
    for match in _WORD.finditer(question):
        if match.group(0).lower() not in unplaced:
            continue
        between = question[runs[-1][1]:match.start()] if runs else None
        if between is not None and not between.strip():
            runs[-1] = (runs[-1][0], match.end())
        else:
            runs.append((match.start(), match.end()))
    return runs


def _closest_names(words: str, model: SemanticModel) -> list[str]:
    """The model's measures and fields spelt closest to `words`, best first."""
    from rapidfuzz import fuzz, process

    names = list(dict.fromkeys([m.label for m in model.metrics] + [d.label for d in model.dimensions]))
    found = process.extract(words.lower(), [n.lower() for n in names], scorer=fuzz.WRatio, limit=2, score_cutoff=CLOSE)
    return [names[index].lower() for _, _, index in found]


def _replace(question: str, text: str, by: str) -> str:
    return re.sub(rf"(?<![\w-]){re.escape(text)}(?![\w-])", by, question, count=1)


def _tidy(question: str, model: SemanticModel) -> str:
    """Spaces closed up, and no word left dangling at the end ('flights from')."""
    words = re.sub(r"\s+", " ", question).strip(" ,").split(" ")
    while words and words[-1].lower() in model.function_words:
        words.pop()
    return " ".join(words)
