"""The offline semantic parser: a question in English -> a StructuredIntent, by general rules.

The reader is the ordered list of passes below: each is a function `Draft -> Draft` in its own
module, reading the question's tokens and the lexicon's mentions, marking what it understood and
filling its part of the draft. A pass that finds the question cannot be answered as asked ends the
reading with the reason (a value the warehouse lacks, a word with two meanings, a word nobody
placed), so the caller asks back or says what is missing instead of answering a different
question. To extend the reader, add a pass module and put it in its place in `PASSES`.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.semantic.nlq import shapes
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.nlq.parse import (
    absence,
    assemble,
    blockers,
    came_into_being,
    calendar,
    choice,
    comparisons,
    coverage,
    dating,
    defining,
    display,
    groupings,
    limits,
    listing,
    measures,
    named_values,
    none_flagged,
    none_with,
    not_real,
    present,
    numbered,
    patterns,
    per_thing,
    ranking,
    superlatives,
    tokens,
)
from agent.semantic.nlq.parse.draft import Draft, Extraction
from agent.semantic.model.values import ValueIndex

__all__ = ["PASSES", "Extraction", "extract_intent"]

Pass = Callable[[Draft], Draft]

PASSES: list[Pass] = [
    defining.definitions_pass,  # formulas and conditions the question defines, taken out of its text
    tokens.tokens_pass,  # tokens, and the lexicon's phrases found in them
    display.display_unit_pass,  # 'in hours': the unit the answer is wanted in
    calendar.calendar_pass,  # topics the data lacks; months, days, holidays, seasons, quarters, years
    dating.dating_pass,  # which date the calendar words are about ('shipped in')
    comparisons.comparisons_pass,  # numbers compared with a measure (rows) or an aggregate (HAVING)
    limits.limits_pass,  # how many groups to keep
    patterns.patterns_pass,  # part of a text ('ends in BRASS')
    numbered.numbered_pass,  # a thing named by its number ('user 15', 'series 7')
    none_flagged.none_flagged_pass,  # groups none of whose rows is flagged ('which job roles have no leavers')
    named_values.flags_pass,  # true/false conditions said in words
    named_values.values_pass,  # the warehouse's own values, negated or contrasted
    none_with.none_with_pass,  # things none of whose rows meet a condition ('users who never gave a 5-star rating')
    absence.absence_pass,  # things said to be missing ('never placed an order')
    groupings.counted_pass,  # distinct counts ('how many different manufacturers')
    per_thing.per_thing_pass,  # an average per thing: 'ratings per user on average', 'flights per plane'
    listing.listing_pass,  # the things themselves: 'list our job roles', 'what showstoppers did X make'
    groupings.groupings_pass,  # 'by month', 'per carrier', 'which destination'
    superlatives.superlatives_pass,  # 'the priciest pizza': which thing ranks first by the adjective's measure
    measures.measures_pass,  # the metrics asked for, and what a ranking ranks
    blockers.blockers_pass,  # what could not be placed: ask back or say what is missing
    choice.default_metric_pass,  # no measure named: a share of flagged rows, or the model's default
    choice.metrics_pass,  # the table that reaches every dimension; dates counted back; rows vs groups
    ranking.ranking_pass,  # order, how many, and within what
    assemble.assemble_pass,  # the StructuredIntent
    shapes.shapes_pass,  # names not codes, previous period, contrasts, counting groups
    not_real.not_real_pass,  # rows marked as tests or sandboxes are left out
    present.present_pass,  # 'right now': only the rows marked as so at present
    came_into_being.came_into_being_pass,  # 'new riders signed up in 2024': the day they began dates them already
    coverage.coverage_pass,  # the reading must account for the question; its confidence
]


def extract_intent(question: str, model: SemanticModel, values: ValueIndex) -> Extraction:
    draft = Draft(question=question, model=model, values=values)
    for run in PASSES:
        draft = run(draft)
        if draft.outcome is not None:
            return draft.outcome
    raise AssertionError("the last pass always decides")  # coverage_pass sets the outcome
