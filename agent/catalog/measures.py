"""One table's dimensions, measures and metrics in the bootstrapped model, by general rules whose
words are in `bootstrap_words.yaml` (and `net_measures` in vocabulary.yaml), never a data set's
names: each column is read once as a key, a date, a time of day, a flag, a code, a position (a
year, a rank: grouped by, never summed), an amount, a duration or a label."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlglot

from agent.catalog.naming import bootstrap_words, column_prefix, singular, slug, thing, words_of
from agent.catalog.references import Shape
from agent.text.words import inflection
from agent.warehouse import Column, Schema
from agent.warehouse.base import quote

if TYPE_CHECKING:
    from agent.catalog.evidence import Profile

_NUMERIC = re.compile(r"int|numeric|decimal|double|float|real|number|money", re.IGNORECASE)
_TIME = re.compile(r"date|timestamp|datetime", re.IGNORECASE)
_TIME_OF_DAY = re.compile(r"^time\b(?!stamp)", re.IGNORECASE)
_TEXT = re.compile(r"char|text|string|varchar|enum", re.IGNORECASE)
_BOOL = re.compile(r"bool", re.IGNORECASE)
_TIMESTAMP = re.compile(r"timestamp|datetime", re.IGNORECASE)
# a date and a time of day as one timestamp, per dialect (PostgreSQL and DuckDB add them)
_COMBINE = {"mysql": "TIMESTAMP({date}, {time})", "snowflake": "TIMESTAMP_NTZ_FROM_PARTS({date}, {time})",
            "bigquery": "DATETIME({date}, {time})", "trino": "CAST({date} AS TIMESTAMP) + ({time} - TIME '00:00:00')",
            "clickhouse": "toDateTime(concat(toString({date}), ' ', toString({time})))"}
_KEYISH = re.compile(r"(^id$|_id$|_key$|^key$|_code$|_sk$|Id$|Key$)")


def plural(words: tuple[str, ...]) -> str:
    *head, last = words or ("row",)
    forms = inflection(last, "NNS") if last.isalpha() else ()
    return " ".join([*head, forms[0] if forms else last])


class TableRules:
    def __init__(self, schema: Schema, shape: Shape, shapes: dict[str, Shape], dialect: str,
                 fractions: frozenset[tuple[str, str]], profiles: dict[tuple[str, str], "Profile"], used: set[str]):
        self.schema, self.shape, self.shapes, self.dialect = schema, shape, shapes, dialect
        self.info = schema.info[shape.key]
        self.columns = schema.tables[shape.key]
        self.prefix = column_prefix([c.name for c in self.columns])
        self.words = bootstrap_words()
        self.fractions, self.profiles, self.used = fractions, profiles, used
        self.thing = thing(self.info.name) or (shape.name,)
        self.kinds = {c.name: self._kind(c) for c in self.columns}

    # -- reading each column once --------------------------------------------------------------------

    def _kind(self, column: Column) -> str:
        name, type_ = column.name, column.type
        if name in self.shape.entity_refs or (len(self.info.primary_key) == 1 and name == self.info.primary_key[0]):
            return "key"
        if name in self.shape.role_refs:
            return "role"
        if _TIME_OF_DAY.search(type_):
            return "time_of_day"
        if _TIME.search(type_):
            return "time"
        if _BOOL.search(type_) or self._flag_values(column) is not None:
            return "flag"
        said = words_of(name, self.prefix)
        if _NUMERIC.search(type_):
            if name in self.info.primary_key or _KEYISH.search(name):
                return "identifier"
            if len(code_labels(column.comment)) >= 2:
                return "code"
            if self._ordinal(said):
                return "position"
            if self._duration(column) is not None:
                return "duration"
            return "amount"
        if _TEXT.search(type_):
            return "label"
        return "other"

    def _ordinal(self, said: tuple[str, ...]) -> bool:
        counts = said[:1] and said[0] in self.words["counts_first"] or set(said) & set(self.words["counts_anywhere"])
        if counts or not said:
            return False
        last = said[-1]
        window = len(said) > 1 and said[-2].isdigit()  # 'Viewers7Day': within seven days, not a day
        return last in self.words["not_measures"] and not window

    def _duration(self, column: Column) -> dict[str, Any] | None:
        said = set(words_of(column.name, self.prefix))
        comment = set(re.findall(r"[a-z]+", column.comment.lower()))
        durations: list[dict[str, Any]] = self.words["durations"]
        for unit in durations:
            if said & set(unit["words"]) or comment & set(unit["words"]):
                return unit
        return None

    def _minor_money(self, column: Column) -> dict[str, Any] | None:
        """The currency's hundredths a money column is kept in: named so ('price_cents', 'amountMinor'), or said
        so by its comment ('price paid in cents', 'in minor units')."""
        said = set(words_of(column.name, self.prefix))
        comment = column.comment.lower()
        for unit in self.words["minor_money"]:
            words = [str(w) for w in unit["words"]]
            if said & set(words) or any(re.search(rf"\bin {w}\b", comment) for w in words):
                return dict(unit)
        return None

    def _amount_unit(self, said: str) -> tuple[str, str | None]:
        """An amount's words without a unit said last, and that unit ('weight kg' -> weight, kg)."""
        words = said.split()
        units: dict[str, str] = self.words["amount_units"]
        if len(words) >= 2 and words[-1] in units:
            return " ".join(words[:-1]), units[words[-1]]
        generic = {*self.words["net_measures"].get("quantities", []), "qty", "quantity", "amt", "amount"}
        if len(words) == 2 and words[0] in units and words[1] in generic:
            return words[0], units[words[0]]  # 'kwh_qty': an amount of kWh, said 'kwh'
        return said, None

    def _flag_values(self, column: Column) -> tuple[Any, Any] | None:
        """(the value meaning yes, the one meaning no) of a two-valued column."""
        profile = self.profiles.get((self.shape.key, column.name))
        if profile is None or profile.distinct != 2 or column.name in self.info.primary_key:
            return None
        said = words_of(column.name, self.prefix)
        if _NUMERIC.search(column.type) and said and singular(said[-1]) != said[-1]:
            return None  # 'TechnicalWinners' counts winners, even where there was never more than one
        seen = {str(profile.low).strip().lower(): profile.low, str(profile.high).strip().lower(): profile.high}
        for yes, no in self.words["flag_values"]:
            if set(seen) == {str(yes), str(no)}:
                return seen[str(yes)], seen[str(no)]
        return None

    def year_column(self) -> str | None:
        """The dimension of a column holding a year ('release_year', 'ModelYr'): on a table with no
        date, what 'in 1999' or 'in the 80s' is about."""
        for column in self.columns:
            said = words_of(column.name, self.prefix)
            kind = self.kinds[column.name]
            if kind == "position" and said and said[-1] in self.words["year_words"]:
                return slug(column.name)
            # 'yearid' in a key (a season's team, a player's season): a year all the same, by its values
            bare = said[:-1] if len(said) > 1 and said[-1] in self.words["key_words"] else ()
            if kind == "identifier" and bare and bare[-1] in self.words["year_words"] and self._holds_years(column):
                return slug(column.name)
        return None

    def _holds_years(self, column: Column) -> bool:
        profile = self.profiles.get((self.shape.key, column.name))
        try:
            return profile is not None and 1800 <= int(profile.low) <= int(profile.high) <= 2200
        except (TypeError, ValueError):
            return False

    # -- dimensions -------------------------------------------------------------------------------------

    def dimensions(self, taken: set[str]) -> list[dict[str, Any]]:
        dims: list[dict[str, Any]] = []
        display = self.display_column()

        def add(entry: dict[str, Any], column: Column | None = None) -> None:
            if entry["name"] in taken and column is not None and column.name == display:
                # the entity keeps the thing's name; its rows are named by this column
                entry = {**entry, "name": entry["name"] + "_name", "expr": entry.get("expr", entry["name"])}
            if entry["name"] in taken:
                return
            if column is not None and column.comment:
                entry["description"] = column.comment
            taken.add(entry["name"])
            dims.append(entry)

        for column in self.columns:
            kind, name = self.kinds[column.name], slug(column.name)
            expr = quote(column.name, self.dialect)
            if kind == "time":
                # A timestamp holds the time of day ('which hour do most ratings come in'); a date does not.
                grain = "hour" if _TIMESTAMP.search(column.type) else "day"
                add(_named(name, expr, type="time", type_params={"time_granularity": grain}), column)
            elif kind == "time_of_day" and self.moment() is None:  # no date to tell it with: the hour alone
                hour = sqlglot.transpile(f"EXTRACT(HOUR FROM {expr})", read=self.dialect, write=self.dialect)[0]
                add({"name": f"{name}_hour", "type": "categorical", "expr": hour,
                     "config": {"meta": {"kind": "numeric"}}}, column)
            elif kind == "flag":
                add({"name": name, "type": "categorical", "expr": self.flag_condition(column),
                     "config": {"meta": {"kind": "flag"}}}, column)
            elif kind == "label":
                entry = _named(name, expr, type="categorical")
                if column.name == display:
                    entry["config"] = {"meta": {"synonyms": self.display_words(column)}}
                elif len(labels := code_labels(column.comment)) >= 2:  # 'T = in transit': a text code's meaning
                    entry["config"] = {"meta": {"value_aliases": labels}}
                add(entry, column)
            elif kind == "code":
                labels = code_labels(column.comment)
                add({**_named(name, expr, type="categorical"), "config": {"meta": {"value_aliases": labels}}}, column)
            elif kind == "position":
                add({**_named(name, expr, type="categorical"), "config": {"meta": {"kind": "numeric"}}}, column)
            elif kind == "identifier":
                add(_named(name, expr, type="categorical"), column)
            elif kind == "role":
                add(self.role_dimension(column), column)
            elif kind == "amount" and self.is_unit_price(column):  # read by lines pointing here
                add({**_named(name, expr, type="categorical"), "config": {"meta": {"kind": "numeric"}}}, column)
        for column in self.columns:
            flag = self.null_flag(column)
            if flag is not None:
                add(flag)
        full = self.full_name()
        if full is not None:
            add(full)
        moment = self.moment()
        if moment is not None:  # first: the date rows are dated by, to the hour ('busiest hour')
            dims.insert(0, moment)
        return dims

    def moment(self) -> dict[str, Any] | None:
        """A date and a time of day kept apart ('orderDate', 'orderTime') as one time dimension to the
        hour, named by their common words ('order_datetime')."""
        dates = [c for c in self.columns if self.kinds[c.name] == "time" and not _TIMESTAMP.search(c.type)]
        times = [c for c in self.columns if self.kinds[c.name] == "time_of_day"]
        if len(dates) != 1 or len(times) != 1:
            return None
        date, time = (quote(c.name, self.dialect) for c in (dates[0], times[0]))
        shared = []
        for a, b in zip(words_of(dates[0].name, self.prefix), words_of(times[0].name, self.prefix)):
            if a != b:
                break
            shared.append(a)
        name = slug(" ".join([*shared, "datetime"])) if shared else f"{slug(dates[0].name)}_{slug(times[0].name)}"
        return {"name": name, "type": "time", "type_params": {"time_granularity": "hour"},
                "expr": _COMBINE.get(self.dialect, "{date} + {time}").format(date=date, time=time),
                "description": f"{' '.join(words_of(dates[0].name))} at {' '.join(words_of(times[0].name))}"}

    def display_column(self) -> str | None:
        """The column that names one row: 'name', 'title', '<thing> name', 'full name' (not a first
        or last name alone)."""
        names = self.words["name_words"]
        first, last = set(self.words["first_name"]), set(self.words["last_name"])
        options = []
        for column in self.columns:
            said = words_of(column.name, self.prefix)
            if self.kinds[column.name] == "label" and tuple(words_of(column.name)) == tuple(self.thing):
                options.append((0, column.name))  # the thing's own name for its rows: 'promoCode' of promoCodes
                continue
            if self.kinds[column.name] != "label" or not said or said[-1] not in names or set(said) & (first | last):
                continue
            # 'name', 'baker name', 'full name'; never another thing's ('winner name'); a prefix set
            # aside may be the thing's own first word ('job_role_name' in job_roles)
            heads = {"".join(said[:-1]), "".join(words_of(column.name)[:-1])}
            if "" in heads or "".join(self.thing) in heads \
                    or set(said[:-1]) <= set(self.words["display_qualifiers"]):
                options.append((len(said), column.name))
        return min(options)[1] if options else None

    def display_words(self, column: Column) -> list[str]:
        thing_words = " ".join(self.thing)
        said = " ".join(words_of(column.name, self.prefix))
        # not the bare thing ('client'): 'by client tier' is the tier's
        return list(dict.fromkeys([said, f"{thing_words} {said.split()[-1]}"]))

    def null_flag(self, column: Column) -> dict[str, Any] | None:
        """A state the comment says an empty value means ('paid date; NULL = unpaid (open)'): a flag true
        where the column is NULL, named by the state's words ('unpaid', also 'open'), time adverbs aside
        ('still in service': 'in service')."""
        match = re.search(self.words["null_meaning"], column.comment or "", re.I)
        if match is None or column.name in self.info.primary_key:
            return None
        fillers = set(self.words["null_fillers"])
        said = [w for w in match.group("label").lower().split() if w not in fillers]
        aside = (match.group("aside") or "").lower().split()
        names = [" ".join(said)] + ([" ".join(aside)] if 0 < len(aside) <= 3 and aside[0] not in fillers | {"or", "and"} else [])
        if not said or len(said) > 4 or said[0] in self.words["negations"]:
            return None  # 'NULL = not delivered yet': the date column's own verb says it, a flag would mislead
        return {"name": slug(" ".join(said)), "type": "categorical", "description": column.comment,
                "expr": f"{quote(column.name, self.dialect)} IS NULL",
                "config": {"meta": {"kind": "flag", "synonyms": names}}}

    def full_name(self) -> dict[str, Any] | None:
        """A person's name from a first and a last name column, when no column holds it whole."""
        if self.display_column() is not None:
            return None
        first = self._name_part(self.words["first_name"])
        last = self._name_part(self.words["last_name"])
        if first is None or last is None:
            return None
        sql = f"CONCAT({quote(first, self.dialect)}, ' ', {quote(last, self.dialect)})"
        thing_words = " ".join(self.thing)
        return {"name": f"{slug(thing_words)}_name", "type": "categorical",
                "expr": sqlglot.transpile(sql, read=self.dialect, write=self.dialect)[0],
                "description": f"The {thing_words}'s first and last name",
                "config": {"meta": {"synonyms": [f"{thing_words} name", "full name", "name"]}}}

    def _name_part(self, kinds: list[str]) -> str | None:
        for column in self.columns:
            said = words_of(column.name, self.prefix)
            if self.kinds[column.name] == "label" and len(said) >= 2 and said[-1] == "name" and said[-2] in kinds:
                return column.name
        return None

    def role_dimension(self, column: Column) -> dict[str, Any]:
        """A second reference to a table, or one to its own ('ManagerId', 'ReportsTo', 'ParentId'):
        grouped by, its values labelled by the row it points at."""
        ref = self.shape.role_refs[column.name]
        said = words_of(column.name, self.prefix)
        stem = [w for w in said if w not in self.words["key_words"]] or list(said)
        target = self.shapes[ref.target]
        rules = TableRules(self.schema, target, self.shapes, self.dialect, self.fractions, self.profiles, set())
        entry: dict[str, Any] = {"name": slug(" ".join(stem)), "type": "categorical",
                                 "expr": quote(column.name, self.dialect)}
        display = rules.display_column()
        if display is not None:
            entry["config"] = {"meta": {"value_labels": {"semantic_model": target.name, "key": ref.target_column,
                                                         "label": display}}}
        entry["description"] = column.comment or f"The {' '.join(thing(self.schema.info[ref.target].name))} it points at"
        return entry

    def flag_condition(self, column: Column) -> str:
        expr = quote(column.name, self.dialect)
        values = self._flag_values(column)
        if values is None:
            return expr
        yes = values[0]
        literal = str(yes) if isinstance(yes, (int, float)) else "'" + str(yes).replace("'", "''") + "'"
        return f"{expr} = {literal}"

    def is_unit_price(self, column: Column) -> bool:
        """A price of one unit: 'price', 'unit price', 'UnitPrice' (an 'extended price' is a line's)."""
        said = words_of(column.name, self.prefix)
        net = self.words["net_measures"]
        amounts = [w for w in net["amounts"] if w == "price"]
        units = net["unit_words"]
        joined = "".join(said)
        if not amounts or "price" not in joined:
            return False
        # 'list price', 'sale price' are one unit's too; 'extended price', 'line total' are a line's
        return said == ("price",) or any(u in joined for u in units) or (
            "price" in said and not any(w in said for w in net.get("line_words", [])))

    # -- measures and their metrics ----------------------------------------------------------------------

    def measures(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        out = _Out(self.used)
        model = self.shape.name
        key = self.info.primary_key[0] if len(self.info.primary_key) == 1 else None
        count_expr = quote(key, self.dialect) if key else "1"
        rows = plural(self.thing)
        count = out.add({"name": f"{model}_count", "description": f"Number of {self.shape.key} rows",
                         "agg": "count" if key else "sum", "expr": count_expr})
        for ref, entity in self.shape.entity_refs.items():
            target = thing(self.schema.info[self.shape.reference(ref).target].name)
            them = plural(target)
            out.add({"name": f"{model}_distinct_{slug(entity)}", "agg": "count_distinct",
                     "expr": quote(ref, self.dialect), "description": f"Number of different {them} in {self.shape.key}"},
                    label=f"{them.capitalize()} with {rows}",
                    synonyms=[f"distinct {them}", f"number of distinct {them}", f"different {them}"])
        if self.shape.bridge:  # sums over a link table would count a thing once per link
            return out.measures, out.metrics
        for column in self.columns:
            kind = self.kinds[column.name]
            said = " ".join(words_of(column.name, self.prefix))
            expr = quote(column.name, self.dialect)
            base = f"{model}_{slug(column.name)}"
            described = {"description": column.comment} if column.comment else {}
            if kind == "amount":
                additive = any(w in column.name.lower() for w in self.words["net_measures"].get("additive", []))
                bare, unit_said = self._amount_unit(said)
                minor = self._minor_money(column)
                if minor is not None:  # 'price_cents': the price in dollars, as people say money
                    bare = " ".join(w for w in said.split() if w not in minor["words"]) or "amount"
                    expr, unit_said = f"{expr} / {minor['divide_by']}.0", str(minor["in"])
                for suffix, agg in (("total", "sum"), ("average", "average")):
                    named: dict[str, Any] = {} if unit_said is None else {
                        "label": f"{'Total' if agg == 'sum' else 'Average'} {bare}",
                        "synonyms": [bare, said, f"{bare} in {unit_said}"], "unit": unit_said}
                    out.add({"name": f"{base}_{suffix}", "agg": agg, "expr": expr, **described},
                            default=additive == (agg == "sum"), **named)
            elif kind == "code":
                out.add({"name": f"{base}_average", "agg": "average", "expr": expr, **described}, default=True)
            elif kind == "duration":
                unit = self._duration(column)
                assert unit is not None
                bare = " ".join(w for w in said.split() if w not in unit["words"]) or "duration"
                converted = f"{expr} / {unit['divide_by']}.0"
                for suffix, agg in (("total", "sum"), ("average", "average")):
                    out.add({"name": f"{model}_{slug(bare)}_{unit['in']}_{suffix}", "agg": agg, "expr": converted,
                             "description": (column.comment + "; " if column.comment else "")
                             + f"{said} in {unit['in']}"},
                            label=f"{'Total' if agg == 'sum' else 'Average'} {bare} in {unit['in']}",
                            synonyms=[f"{bare}", f"{bare} in {unit['in']}"], default=agg == "average",
                            unit=unit["in"])
            elif kind == "flag":
                flag = " ".join(w for w in said.split() if w not in self.words["flag_prefixes"]) or said
                measure = out.add({"name": f"{base}_count", "agg": "sum_boolean",
                                   "expr": self.flag_condition(column), **described},
                                  label=f"{rows.capitalize()} {flag}".strip(),
                                  synonyms=[f"{rows} with {flag}", f"number of {flag}", f"{flag} count"])
                fields = {"flag": flag, "rows": rows}
                out.metrics.append({"name": self.used_name(f"{base}_rate"), "label": f"{flag.capitalize()} rate",
                                    "description": f"Share of {rows} with {flag}", "type": "ratio",
                                    "type_params": {"numerator": measure, "denominator": count},
                                    "config": {"meta": {"synonyms": [s.format(**fields)
                                                                     for s in self.words["rate_synonyms"]]}}})
        self.line_amounts(out)
        return out.measures, out.metrics

    def used_name(self, name: str) -> str:
        candidate, n = name, 2
        while candidate in self.used:
            candidate, n = f"{name}_{n}", n + 1
        self.used.add(candidate)
        return candidate

    def line_amounts(self, out: "_Out") -> None:
        """Price times quantity, on the line or with the price of the row the line points at, and net
        of a discount on the line where there is one: what 'sales' and 'revenue' mean."""
        net = self.words["net_measures"]
        amounts = [c for c in self.columns if self.kinds[c.name] == "amount"]

        def named(column: Column, kinds: list[str]) -> str | None:
            label = "".join(words_of(column.name, self.prefix))
            return next((w for w in kinds if w in label), None)

        quantity = next((c for c in amounts if named(c, net["quantities"])), None)
        if self.thing[-1:] and self.thing[-1] in self.words["reversal_rows"]:
            return  # returns, refunds: a quantity times a price of rows that undo a sale is no sales
        deductions = [c for c in amounts if named(c, net["deductions"])]
        deduction = deductions[0] if len(deductions) == 1 else None
        found = self._net(amounts, deduction, quantity, named, out) if deduction is not None else 0
        if quantity is None:
            return
        prices = [(quote(c.name, self.dialect), c) for c in amounts if self.is_unit_price(c)]
        # a line with an amount of its own ('net_amount') says what it brought in: no other table's list price
        own_amount = any(named(c, net["amounts"]) and not named(c, net["deductions"]) and c is not quantity
                         for c in amounts if not self.is_unit_price(c))
        if not prices and not own_amount:
            for ref, entity in self.shape.entity_refs.items():
                target = self.shapes[self.shape.reference(ref).target]
                rules = TableRules(self.schema, target, self.shapes, self.dialect, self.fractions, self.profiles, set())
                if any(rules.kinds[c.name] == "amount" and any(w in "".join(words_of(c.name, rules.prefix))
                                                              for w in net["quantities"]) for c in rules.columns):
                    continue  # the line it points at has its own quantity: these rows (returns) are no sale
                prices += [(f"{entity}.{slug(c.name)}", c) for c in rules.columns
                           if rules.kinds[c.name] == "amount" and rules.is_unit_price(c)]
        if len(prices) != 1:
            return
        price, column = prices[0]
        gross = f"{quote(quantity.name, self.dialect)} * {price}"
        if (minor := self._minor_money(column)) is not None:  # a price in cents: the sales in dollars
            gross = f"{gross} / {minor['divide_by']}.0"
        words = self.words["line_amount"]
        label = "sales" if not found else "gross sales"
        synonyms = words["synonyms"] if not found else ["gross sales", "gross revenue", "sales before discount"]
        fields = {"amount": label}
        out.add({"name": f"{self.shape.name}_sales", "agg": "sum", "expr": gross,
                 "description": f"{' '.join(words_of(quantity.name, self.prefix))} times the "
                                f"{' '.join(words_of(column.name))} ({gross})"},
                label=label.capitalize(), synonyms=list(dict.fromkeys(s.format(**fields) for s in synonyms)),
                default=True)

    def _net(
        self,
        amounts: list[Column],
        deduction: Column,
        quantity: Column | None,
        named: Callable[[Column, list[str]], str | None],
        out: _Out,
    ) -> int:
        """An amount net of a deduction on the same row ('price after discount'); how many."""
        added = 0
        net = self.words["net_measures"]
        deduction_word = named(deduction, net["deductions"]) or "discount"
        for amount in amounts:
            amount_word = named(amount, net["amounts"])
            if amount_word is None or amount is deduction or named(amount, net["deductions"]) \
                    or "net" in words_of(amount.name, self.prefix):
                continue  # 'net_amount' beside 'discount_amount' is after the discount already
            label = " ".join(words_of(amount.name, self.prefix))
            if label.endswith(amount_word) and not label.endswith(" " + amount_word) and label != amount_word:
                label = f"{label[:-len(amount_word)]} {amount_word}"  # 'extendedprice' reads 'extended price'
            gross = quote(amount.name, self.dialect)
            named_as = f"Net {label}"
            if quantity is not None and self.is_unit_price(amount):  # 'list price' after discount, times the units
                gross = f"{gross} * {quote(quantity.name, self.dialect)}"
                named_as = "Net sales"  # what the line brought in, whatever the price is called
            off = quote(deduction.name, self.dialect)
            fraction = (self.shape.key, deduction.name) in self.fractions
            expr = f"{gross} * (1 - {off})" if fraction else f"{gross} - {off}"
            if (minor := self._minor_money(amount)) is not None:  # in cents: the net in dollars
                expr = f"({expr}) / {minor['divide_by']}.0"
                label = " ".join(w for w in label.split() if w not in minor["words"]) or label
            fields = {"amount": label, "word": amount_word, "deduction": deduction_word}
            synonyms = list(dict.fromkeys(s.format(**fields) for s in net["synonyms"]))
            bare = amount.name.lower().removeprefix(self.prefix)
            out.add({"name": f"{self.shape.name}_net_{slug(bare)}", "agg": "sum", "expr": expr,
                     "description": f"{label} after {deduction_word} ({expr})"},
                    label=named_as, synonyms=synonyms)
            added += 1
        return added


class _Out:
    """Measures and their simple metrics, with names unique across the project."""

    def __init__(self, used: set[str]):
        self.used = used
        self.measures: list[dict[str, Any]] = []
        self.metrics: list[dict[str, Any]] = []

    def add(self, measure: dict[str, Any], *, label: str | None = None, synonyms: list[str] | None = None,
            default: bool = False, unit: str | None = None) -> str:
        name: str = measure["name"]
        candidate, n = name, 2
        while candidate in self.used:
            candidate, n = f"{name}_{n}", n + 1
        self.used.add(candidate)
        measure = {**measure, "name": candidate}
        self.measures.append(measure)
        metric: dict[str, Any] = {"name": candidate, "label": label or candidate.replace("_", " ").capitalize(),
                                  "type": "simple", "type_params": {"measure": candidate}}
        meta = {k: v for k, v in (("synonyms", synonyms), ("default", default), ("unit", unit)) if v}
        if meta:
            metric["config"] = {"meta": meta}
        self.metrics.append(metric)
        return candidate


def code_labels(comment: str) -> dict[str, str]:
    """'1 = Low, 2 = Medium' -> {'Low': '1', 'Medium': '2'}: what each code of a column means. A remark in
    parentheses is no part of the name ('X = express (guaranteed, one day faster)' -> express)."""
    pattern = re.compile(bootstrap_words()["code_pair"])
    bare = re.sub(r"\s*\([^()]*\)", "", comment or "")
    return {m.group("label").strip(): m.group("code") for m in pattern.finditer(bare)}


def _named(name: str, expr: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, **fields}
    if name != expr:
        entry["expr"] = expr
    return entry


__all__ = ["TableRules", "code_labels", "plural"]
