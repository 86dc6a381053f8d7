"""Load a semantic layer: dbt YAML for the compiler, and the parser's view of the same names.

`load_layer(path)` reads a dbt project (or any folder of YAML) with `dbt_load`, then derives
the flat view the offline parser reads (`model.SemanticModel`): one table per semantic
model, one many-to-one join per entity edge, dimensions merged by name across models, and
simple metrics with the measure they aggregate. Words come from the YAML only: names,
labels, descriptions and `meta` (synonyms, units, value cues), the generic English in
`vocabulary.yaml`, and an optional `semantic_assistant.yml` beside the model. A project
without any of that meta (a bootstrapped one) still gets a usable view by general rules:
names become words, every categorical dimension is matched against warehouse values, and
a dimension whose column a sum/average measure aggregates is numeric.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any


from agent.semantic.spec.dbt_load import read_project
from agent.semantic.model.grounding import ground, metric_words
from agent.semantic.model.row_names import row_names
from agent.semantic.model.short_forms import short_forms_in_comments
from agent.semantic.spec.dbt_spec import Dimension, Measure, MeasureInput
from agent.semantic.spec.dbt_spec import Metric as DbtMetric
from agent.semantic.spec.dbt_spec import Project
from agent.semantic.spec.dbt_spec import SemanticModel as DbtModel
from agent.semantic.model.runtime import SemanticModel, SemanticModelError
from agent.text.words import inflection, is_english, noun_forms, shared_prefix, split_name
from agent.yamlload import safe_load

DEMO_MODEL_PATH = Path(__file__).parents[1] / "demo_model"
VOCABULARY_PATH = Path(__file__).parents[1] / "vocabulary.yaml"
THESAURUS_PATH = Path(__file__).parents[1] / "thesaurus.yaml"
SIDECAR_NAMES = ("semantic_assistant.yml", "semantic_assistant.yaml")

_AGG_WORD = {"average": "avg", "sum": "sum", "max": "max", "min": "min", "median": "median"}


def load_layer(path: Path | str | None = None, dialect: str = "duckdb") -> SemanticModel:
    """The parser's view of the semantic layer at `path` (default: the demo's), carrying the dbt project."""
    root = Path(path) if path else DEMO_MODEL_PATH
    if not root.exists():
        raise SemanticModelError(f"The semantic model path {root} does not exist.")
    project = read_project(root, dialect)
    if not project.metrics:
        problems = "; ".join(str(d) for d in project.diagnostics[:5])
        raise SemanticModelError(f"No metric could be read from {root}" + (f": {problems}" if problems else "."))
    project = _with_measured_columns(project)
    vocabulary = _vocabulary(root)
    view = _view(project, vocabulary)
    project, view["implicit_metrics"] = _with_distinct_counts(project, view)
    try:
        return SemanticModel.model_validate({**view, "project": project, "words_source": vocabulary})
    except ValueError as exc:
        raise SemanticModelError(f"The semantic model at {root} is inconsistent: {exc}") from None


def extended(model: SemanticModel, project: Project) -> SemanticModel:
    """The view of `project`, a copy of `model`'s project with more in it (a question's own definitions)."""
    return SemanticModel.model_validate({**_view(project, model.words_source or {}), "project": project,
                                         "words_source": model.words_source})


def view_data(project: Project, like: SemanticModel) -> dict[str, Any]:
    """The parser's view of `project` (a narrowed copy of `like.project`) with `like`'s vocabulary,
    unvalidated: names the YAML's meta gives (count metrics, a default) may need dropping first."""
    if like.words_source is not None:
        return _view(project, {**like.words_source, "default_metric": like.default_metric})
    raw = like.model_dump(by_alias=True)  # a model built without its vocabulary: read it back from the view
    vocabulary = {key: raw[key] for key in _VOCABULARY_KEYS}
    vocabulary["ranking"] = {k: v for k, v in raw["ranking"].items() if k != "implies_measure"}
    vocabulary["implies_measure"] = raw["ranking"].get("implies_measure") or {}
    vocabulary["default_metric"] = like.default_metric
    return _view(project, vocabulary)


_VOCABULARY_KEYS = ("aggregations", "seasons", "time_grains", "named_days", "unsupported_topics", "context_words",
                    "units", "name_suffixes", "everyday_words", "shapes", "meaning_words", "function_words", "coverage")


def _with_measured_columns(project: Project) -> Project:
    """A column a sum or average measure aggregates is also a numeric dimension of its model (when
    the YAML does not declare one), so 'average discount' finds the measure and 'discount over
    0.05' can filter rows. Added in memory only; the YAML is left as written."""
    models = []
    for model in project.semantic_models:
        have = {d.expr for d in model.dimensions} | {d.name for d in model.dimensions} | {e.name for e in model.entities}
        extra = []
        for measure in model.measures:
            column = measure.expr.strip('"`')
            if measure.agg in ("sum", "average", "min", "max", "median") and re.fullmatch(r"[A-Za-z_]\w*", column) \
                    and column not in have and measure.expr not in have:
                extra.append(Dimension(name=slug(column), type="categorical", expr=measure.expr,
                                       meta={"kind": "numeric"}))
                have |= {column, measure.expr, slug(column)}
        models.append(replace(model, dimensions=model.dimensions + tuple(extra)) if extra else model)
    return Project(models, project.metrics, project.diagnostics, project.dialect)


def _with_distinct_counts(project: Project, view: dict[str, Any]) -> tuple[Project, list[dict[str, Any]]]:
    """'How many different manufacturers': every categorical dimension can be counted, as a MetricFlow
    count_distinct measure on the semantic model that holds it (so it counts that model's values and
    can never be multiplied by a join). Where the YAML declares no such metric, one is added in memory:
    the compiler sees it like any metric, the parser's view keeps it apart (`implicit_metrics`) so the
    model's own metric list, its words and the LLM's prompt stay as written."""
    declared = {(m["table"], " ".join(m["expr"].lower().split())) for m in view["metrics"] if not m.get("filter")}
    taken = {m.name for m in project.metrics} | {ms.name for sm in project.semantic_models for ms in sm.measures}
    models = {m.name: m for m in project.semantic_models}
    added: dict[str, list[Measure]] = {}
    metrics, implicit = list(project.metrics), []
    for dim in view["dimensions"]:
        if dim["kind"] != "categorical":
            continue
        source = dim["sources"][0]
        expr = f"count(DISTINCT {source['expr']})"
        name = f"{dim['name']}__count_distinct"
        if (source["table"], " ".join(expr.lower().split())) in declared or name in taken:
            continue
        added.setdefault(source["table"], []).append(Measure(name=name, agg="count_distinct", expr=source["expr"]))
        *head, last = dim["label"].split() or [""]
        label = "Distinct " + " ".join([*head, (inflection(last.lower(), "NNS") or (last + "s",))[0] if last.islower() else last + "s"])
        metrics.append(DbtMetric(name=name, type="simple", label=label, measure=MeasureInput(name=name)))
        implicit.append({"name": name, "label": label, "table": source["table"], "expr": expr})
    if not added:
        return project, []
    semantic_models = [replace(m, measures=m.measures + tuple(added[m.name])) if m.name in added else m
                       for m in models.values()]
    return Project(semantic_models, metrics, project.diagnostics, project.dialect), implicit


def slug(name: str) -> str:
    """A dimension name for a column, its words apart in any naming style ('StarBakerAwards' ->
    star_baker_awards), so the reader finds the words people say."""
    return re.sub(r"[^0-9a-z]+", "_", "_".join(split_name(name).split())).strip("_")


def _vocabulary(root: Path) -> dict[str, Any]:
    merged: dict[str, Any] = safe_load(VOCABULARY_PATH.read_text(encoding="utf-8"))
    merged["thesaurus"] = safe_load(THESAURUS_PATH.read_text(encoding="utf-8"))
    folder = root if root.is_dir() else root.parent
    for name in SIDECAR_NAMES:
        for candidate in (folder / name, folder.parent / name):
            if candidate.exists():
                extra = (safe_load(candidate.read_text(encoding="utf-8")) or {}).get("assistant") or {}
                _merge(merged, extra)
                return merged
    return merged


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        elif isinstance(value, list) and isinstance(base.get(key), list):
            base[key] = list(dict.fromkeys(base[key] + value))
        else:
            base[key] = value


def _words(name: str, prefix: str = "") -> str:
    return split_name(name.removeprefix(prefix))


def _column_prefix(model: DbtModel) -> str:
    """'l_' when every column-named element of the model starts with it (TPC-H's l_shipmode):
    people say 'ship mode', not 'l shipmode'."""
    columns = [d.expr or d.name for d in model.dimensions if not d.meta.get("defined")] + [m.expr for m in model.measures]
    # columns only: a name made of two ('CONCAT(doc_first_name, …)') or a key ('doctor_id') says nothing of it
    return shared_prefix([c for c in columns if re.fullmatch(r"[A-Za-z_]\w*", c)])


def _view(project: Project, vocabulary: dict[str, Any]) -> dict[str, Any]:
    annotated = any("values" in d.meta for m in project.semantic_models for d in m.dimensions)
    tables: list[dict[str, Any]] = []
    joins: list[dict[str, Any]] = []
    dimensions: dict[str, dict[str, Any]] = {}
    for model in project.semantic_models:
        tables.append(_table(model, project))
        for entity in model.entities:
            for target in project.semantic_models:
                key = target.entity(entity.name)
                if target is not model and key is not None and key.type in ("primary", "unique", "natural"):
                    joins.append({"name": f"{model.name}__{entity.name}", "from": model.name, "to": target.name,
                                  "keys": [[entity.expr, key.expr]]})
        for dim in model.dimensions:
            _add_dimension(dimensions, model, dim, project, annotated, _column_prefix(model))
    for model in project.semantic_models:
        _add_identifier(dimensions, model)
    _qualify_shared_labels(dimensions, project)
    more_wanted = {split_name(w) for w in (vocabulary.get("ranking") or {}).get("higher_is_better", [])}
    metrics = [m for m in (_metric(metric, project, more_wanted) for metric in project.metrics) if m is not None]
    known = vocabulary.get("abbreviations") or {}
    # a measure's comment explains its column's short form too ('clk': 'clicks', 'impr': 'impressions')
    described = [(model.name, model.description or "") for model in project.semantic_models] + [
        (dim.name, dim.description or "") for model in project.semantic_models for dim in model.dimensions] + [
        (measure.name, measure.description or "") for model in project.semantic_models for measure in model.measures]
    short = {**short_forms_in_comments(described, known), **known}  # the warehouse's own, then the vocabulary's
    for table in tables:  # 'cust acct' rows are customer accounts: 'how many accounts' counts them
        # the table's own comment explains its own name first ('dist': 'Distributors that deliver our kegs', not the
        # vocabulary's 'distance')
        own = {**short, **short_forms_in_comments([(table["name"], table["description"])], {})}
        table["entity_words"] = list(dict.fromkeys(
            [*table["entity_words"], *(expand_abbreviations(w, own) for w in table["entity_words"])]))
    naming = {w for w in (vocabulary.get("shapes") or {}).get("name_words") or [] if " " not in w}
    _add_described_row_names(tables, dimensions, naming)
    for entry in dimensions.values():
        said = _after_short_form(entry["label"], short)
        if said:  # read out in answers too: 'by market segment'
            entry["synonyms"] = [*entry["synonyms"], entry["label"], said[0]]
            entry["label"] = said[1]
    for entry in [*dimensions.values(), *metrics]:
        expanded = [expand_abbreviations(text, short) for text in entry["synonyms"]]
        entry["synonyms"] = list(dict.fromkeys([*entry["synonyms"], *expanded]))
        full = expand_abbreviations(entry["label"], short)
        if full != entry["label"]:
            entry["synonyms"] = [*entry["synonyms"], entry["label"]]
            entry["label"] = full
    measures = {m["measure"] for m in metrics if m.get("measure")}
    by_name = {m["name"]: m for m in metrics}
    for dbt_metric in project.metrics:  # 'weight_kg': a unit the metric's meta names is its column's unit too
        unit_said = dbt_metric.meta.get("unit")
        column_name = by_name.get(dbt_metric.name, {}).get("measure")
        if unit_said and column_name in dimensions and not dimensions[column_name]["unit"]:
            dimensions[column_name]["unit"] = unit_said
    for name in list(dimensions):
        if dimensions[name]["kind"] == "numeric" or name in measures:
            dimensions[name]["kind"] = "numeric"
            # a code averaged as a measure keeps its labelled values ('job satisfaction: 1 = Low')
            dimensions[name]["values"] = bool(dimensions[name]["value_aliases"])
    _choose_defaults(metrics)
    thesaurus = dict(vocabulary.get("thesaurus") or {})
    ground(tables, dimensions, thesaurus)
    metric_words(metrics, tables, dimensions, thesaurus)
    _money_named_by_its_rows(metrics, tables, dimensions, thesaurus)
    ranking = dict(vocabulary.get("ranking") or {})
    measure_ranks = thesaurus["_ranking"]
    for direction in ("descending", "ascending"):
        ranking[direction] = list(dict.fromkeys([*ranking.get(direction, []), *measure_ranks[direction]]))
    ranking["said_of"] = measure_ranks["said_of"]
    ranking["implies_measure"] = {w: m for w, m in {**measure_ranks["implies_measure"],
                                                    **(vocabulary.get("implies_measure") or {})}.items()
                                  if m in dimensions}
    default = vocabulary.get("default_metric") or next(
        (m["name"] for m in metrics if m.get("counts_rows")), None)
    for metric in metrics:
        metric.pop("counts_rows", None)
    return {
        "tables": tables, "joins": joins, "dimensions": list(dimensions.values()), "metrics": metrics,
        "aggregations": vocabulary.get("aggregations") or {}, "ranking": ranking,
        "seasons": vocabulary.get("seasons") or {}, "time_grains": vocabulary.get("time_grains") or {}, "named_days": vocabulary.get("named_days") or {},
        "distinct_words": vocabulary.get("distinct_words") or [],
        "moving_holidays": vocabulary.get("moving_holidays") or [],
        "relative_cues": (vocabulary.get("relative_dates") or {}).get("cues") or [],
        "relative_grains": (vocabulary.get("relative_dates") or {}).get("grains") or {},
        "relative_so_far": (vocabulary.get("relative_dates") or {}).get("so_far") or [], "unsupported_topics": vocabulary.get("unsupported_topics") or {},
        "default_metric": default, "context_words": vocabulary.get("context_words") or [],
        "units": vocabulary.get("units") or {}, "name_suffixes": vocabulary.get("name_suffixes") or [],
        "everyday_words": vocabulary.get("everyday_words") or [],
        "shapes": vocabulary.get("shapes") or {}, "meaning_words": vocabulary.get("meaning_words") or [],
        "function_words": frozenset(w.lower() for w in vocabulary.get("function_words") or []),
        "coverage": vocabulary.get("coverage") or {},
        "text_patterns": vocabulary.get("text_patterns") or {},
        "short_forms": short,
    }


def _money_named_by_its_rows(metrics: list[dict[str, Any]], tables: list[dict[str, Any]],
                             dimensions: dict[str, dict[str, Any]], thesaurus: dict[str, Any]) -> None:
    """'sales by category' on a table of sales: rows called by a word for money coming in ('sales',
    'takings'), with one amount that adds up, are measured by that amount's total when their word is the
    measure ('how many sales' still counts them: a count asked for is read first)."""
    money_words = {str(w).lower() for w in thesaurus.get("money_in_words") or []}
    amounts = {str(w).lower() for w in thesaurus.get("money_in_amounts") or []}
    for table in tables:
        said = {form for words in table["entity_words"] for form in noun_forms(words.split()[-1])} & money_words
        sums = [m for m in metrics if m.get("table") == table["name"] and m.get("agg") == "sum" and not m.get("filter")
                and dimensions.get(m.get("measure") or "", {}).get("label", "").lower() in amounts]
        if said and len(sums) == 1:
            # the other words for that money ('spend', 'takings') name the amount too, not the rows
            others = [str(w).lower() for group in thesaurus.get("synonyms") or [] if said & {str(w).lower() for w in group}
                      for w in group]
            sums[0]["synonyms"] = list(dict.fromkeys([*sums[0]["synonyms"], *sorted(said), *others]))


def _add_described_row_names(tables: list[dict[str, Any]], dimensions: dict[str, dict[str, Any]],
                             naming: set[str]) -> None:
    """'Depots, also called hubs': the names a table's comment gives its rows become its words too, unless they
    are another table's (its own name, the last word of it, or its comment's) or a column's (its label, or what a
    name column names: 'drug' of 'rx drug name'): a name two things claim tells neither."""
    described = {t["name"]: row_names(t["description"]) if t["entity_words"] else [] for t in tables}
    claims = Counter(w for words in described.values() for w in set(words))
    heads = {form for t in tables for w in t["entity_words"] if len(w.split()) > 1 for form in noun_forms(w.split()[-1])}
    named = {form for d in dimensions.values() if len(label := d["label"].lower().split()) > 1 and label[-1] in naming
             for form in noun_forms(label[-2])}
    owned = {w for t in tables for w in t["entity_words"]} | heads | named | {
        form for d in dimensions.values() for text in (d["label"], *d["synonyms"]) for form in _noun_phrase_forms(text)}
    for table in tables:
        table["entity_words"] += [w for w in described[table["name"]]
                                  if w not in owned and claims[w] == 1 and w not in table["entity_words"]]


def _noun_phrase_forms(text: str) -> set[str]:
    """'engines' -> {'engines', 'engine'}: a phrase with its last word in each of its forms."""
    *rest, last = text.lower().split() or [""]
    return {" ".join([*rest, form]) for form in {last, *noun_forms(last)}}


def expand_abbreviations(label: str, short: dict[str, str]) -> str:
    """'average acctbal' -> 'average account balance': a word that is a known short form, or that
    splits wholly into known short forms ('availqty'); other words stay as they are ('customer' is
    not 'cust' + 'omer')."""
    return " ".join(_expand_word(word, short) for word in label.split(" "))


def _expand_word(word: str, short: dict[str, str]) -> str:
    low = word.lower()
    if low in short:
        return short[low]
    for cut in range(2, len(low) - 1):
        head, rest = low[:cut], low[cut:]
        if head in short and rest in short:
            return f"{short[head]} {short[rest]}"
    return word


def _after_short_form(label: str, short: dict[str, str]) -> list[str]:
    """'mktsegment': people say 'segment' and 'market segment'. Only for a one-word label that starts
    with a known short form of three letters or more, followed by five letters or more."""
    if " " in label or is_english(label):  # 'employed' is a word, never 'emp' + 'loyed'
        return []
    low = label.lower()
    for cut in range(3, len(low) - 4):
        head, rest = low[:cut], low[cut:]
        if head in short and rest.isalpha() and not low.startswith(short[head].lower()):  # 'totalprice' is no 'tot'
            return [rest, f"{short[head]} {rest}"]
    return []


def _qualify_shared_labels(dimensions: dict[str, dict[str, Any]], project: Project) -> None:
    """'name' on five tables reads 'customer name', 'nation name', ... in answers; the bare word
    stays a synonym, so 'names' still finds them."""
    counts: dict[str, int] = {}
    for entry in dimensions.values():
        counts[entry["label"].lower()] = counts.get(entry["label"].lower(), 0) + 1
    for entry in dimensions.values():
        label = entry["label"]
        owner = project.model_by_name.get(entry["sources"][0]["table"])
        if counts[label.lower()] < 2 or owner is None or len(entry["sources"]) > 1:
            continue
        thing = _words(owner.entity_name or owner.name)
        if not label.lower().startswith(thing.lower()):
            entry["label"] = f"{thing} {label}"
            entry["synonyms"] = [*entry["synonyms"], label]


def _table(model: DbtModel, project: Project) -> dict[str, Any]:
    meta = model.meta
    primary = model.primary
    count_metric = meta.get("count_metric") or _row_count_metric(model, project)
    entity = model.entity_name
    return {
        "name": model.name, "relation": model.relation,
        "label": model.label or model.description or _words(model.name), "description": model.description or "",
        "primary_key": [primary.expr] if primary else [],
        "entity_words": meta.get("entity_words", _row_words(entity or model.name, model.name) if count_metric else []),
        "count_metric": count_metric, "counted_from": meta.get("counted_from") or _counted_from(model, project),
        "time": meta.get("time_parts", {}), "bridge": meta.get("bridge", []),
        "agg_time": model.agg_time_dimension, "entity": entity,
    }


def _row_words(entity: str, table: str) -> list[str]:
    """What one row is called: the dbt entity's words, and the table's own where they are not the same
    word ('movies' stays movies, whatever a bootstrap singularised it to)."""
    said, own = _words(entity), _words(table)
    *_, last = said.split() or [""]
    forms = {f"{' '.join(said.split()[:-1])} {f}".strip() for f in noun_forms(last)} if last else set()
    return [said] if own in forms or own == said else [said, own]


def _counted_from(model: DbtModel, project: Project) -> dict[str, str]:
    """How this model's things are counted from rows that point at them: a distinct count of the key
    ('orders' from order lines: the count of different order ids), so 'revenue per order' divides by it."""
    primary = model.primary
    if primary is None:
        return {}
    found: dict[str, str] = {}
    for metric in project.metrics:
        if metric.type != "simple" or metric.filters or metric.measure is None or metric.measure.filters:
            continue
        owner = project.measure_owner.get(metric.measure.name)
        if owner is None or owner is model or owner.name in found:
            continue
        key = owner.entity(primary.name)
        measure = project.measure(metric.measure.name)
        if key is not None and measure.agg == "count_distinct" and measure.expr == key.expr:
            found[owner.name] = metric.name
    return found


def _row_count_metric(model: DbtModel, project: Project) -> str | None:
    """The simple, unfiltered metric counting this model's rows (count of the key, or of 1)."""
    primary = model.primary
    for metric in project.metrics:
        if metric.type != "simple" or metric.filters or metric.measure is None or metric.measure.filters:
            continue
        if project.measure_owner.get(metric.measure.name) is not model:
            continue
        measure = project.measure(metric.measure.name)
        if measure.agg == "count" and (measure.expr in ("1", "*") or (primary and measure.expr == primary.expr)):
            return metric.name
        if measure.agg == "sum" and measure.expr == "1":
            return metric.name
        if measure.agg == "count_distinct" and primary and measure.expr == primary.expr:
            return metric.name
    return None


def _add_dimension(
    dimensions: dict[str, dict[str, Any]], model: DbtModel, dim: Dimension, project: Project, annotated: bool, prefix: str
) -> None:
    meta = dim.meta
    source = {"table": model.name, "expr": dim.expr}
    existing = dimensions.get(dim.name)
    if existing is not None:
        existing["sources"].append(source)
        return
    kind = meta.get("kind") or ("time" if dim.type == "time" else "categorical")
    entry: dict[str, Any] = {
        "name": dim.name, "label": dim.label or _words(dim.name, prefix), "kind": kind, "sources": [source],
        "synonyms": meta.get("synonyms", _entity_split(model, _words(dim.name, prefix), kind)),
        "grain_words": meta.get("grain_words", []),
        "unit": meta.get("unit"), "values": meta.get("values", kind == "categorical" and not annotated),
        "value_aliases": meta.get("value_aliases", {}), "value_cues": meta.get("value_cues", []),
        "comparatives": meta.get("comparatives", []), "description": dim.description or "",
    }
    labels = meta.get("value_labels")
    if labels:
        target = project.model_by_name.get(labels.get("semantic_model", ""))
        entry["value_labels"] = {"table": target.relation if target else labels.get("table"),
                                 "key": labels["key"], "label": labels["label"]}
    dimensions[dim.name] = entry


def _add_identifier(dimensions: dict[str, dict[str, Any]], model: DbtModel) -> None:
    """The table's own key as a dimension named after its entity (the compiler reaches an entity by that
    name): what tells its things apart where no name column does. No words of its own but its label."""
    primary = model.primary
    if primary is None or primary.name in dimensions:
        return
    dimensions[primary.name] = {
        "name": primary.name, "label": f"{_words(primary.name)} id", "kind": "categorical",
        "sources": [{"table": model.name, "expr": primary.expr}], "synonyms": [], "grain_words": [], "unit": None,
        "values": False, "value_aliases": {}, "value_cues": [], "comparatives": [], "description": "",
        "identifier": True,
    }


def _entity_split(model: DbtModel, label: str, kind: str) -> list[str]:
    """Words for a column named after its own table's thing ('orderpriority' on orders): people say
    'order priority' or just 'priority' (a date keeps its owner: 'order date', never bare 'date')."""
    owners = {w for w in (model.entity_name, model.name) if w}
    owners |= {w[:-1] for w in owners if w.endswith("s")}
    owner = next((w for w in sorted(owners, key=len, reverse=True)
                  if " " not in label and label.startswith(w) and len(label) - len(w) >= 3), None)
    if owner is None:
        return []
    rest = label[len(owner):].lstrip("_")
    return [f"{owner} {rest}"] + ([rest] if kind == "categorical" else [])


def _metric(metric: DbtMetric, project: Project, more_wanted: set[str]) -> dict[str, Any] | None:
    meta = metric.meta
    entry: dict[str, Any] = {"name": metric.name, "label": metric.label or _words(metric.name).capitalize(),
                             "synonyms": meta.get("synonyms", []), "default": bool(meta.get("default"))}
    leaf = _first_measure(metric, project)
    if leaf is None:
        return None
    entry["higher_is_better"] = _higher_is_better(metric, project.measure(leaf), more_wanted)
    owner = project.measure_owner[leaf]
    entry["table"] = owner.name
    if metric.type != "simple" or metric.measure is None:
        entry["expr"] = metric.type  # the view only needs the table; the compiler reads the dbt metric
        return entry
    measure = project.measure(metric.measure.name)
    entry["expr"] = {"count_distinct": f"count(DISTINCT {measure.expr})", "count": "count(*)"}.get(
        measure.agg, f"{_AGG_WORD.get(measure.agg, measure.agg)}({measure.expr})")
    filtered = bool(metric.filters or metric.measure.filters)
    if filtered:
        entry["filter"] = " AND ".join(f.text for f in metric.filters + metric.measure.filters)
    agg = _AGG_WORD.get(measure.agg)
    column = next((d for d in owner.dimensions if d.expr == measure.expr and d.type == "categorical"), None)
    generated = column is not None and column.name in metric.name and metric.name != column.name
    if column is not None and generated and agg and (metric.label is None or metric.label.lower() == _words(metric.name).lower()):  # 'lineitem_l_discount_average' reads 'Average discount'
        said, words = dict(avg="average", sum="total").get(agg, agg), _words(column.name, _column_prefix(owner))
        # 'totalAmount' summed reads 'Total amount', never 'Total total amount'
        entry["label"] = (words if words.split()[0] == said else f"{said} {words}").capitalize()
    if agg and not filtered:  # 'avg fare' of `fareCents / 100.0`: the aggregation is known without a column
        entry["agg"] = agg
        if column is not None:
            entry["measure"] = column.name
    key = owner.primary.expr if owner.primary else None
    entry["counts_rows"] = measure.agg == "count" and not filtered and (
        re.fullmatch(r"1|\*", measure.expr) is not None or measure.expr == key)
    return entry


def _higher_is_better(metric: DbtMetric, measure: Measure, more_wanted: set[str]) -> bool:
    """What 'best' ranks first: meta `better: higher|lower` when the YAML says; otherwise the highest when the
    metric's words name what people want more of (sales, ratings, quantity sold: the vocabulary's
    `higher_is_better`), else the lowest, as of a delay, a cost or a rank where 1 is first."""
    said = metric.meta.get("better")
    if said in ("higher", "lower"):
        return bool(said == "higher")
    words = set(" ".join(split_name(n) for n in (metric.name, metric.label or "", measure.name, measure.expr)).split())
    return bool(words & more_wanted)


def _first_measure(metric: DbtMetric, project: Project, seen: tuple[str, ...] = ()) -> str | None:
    if metric.measure is not None:
        return metric.measure.name
    for item in [metric.numerator, metric.denominator, *metric.inputs]:
        inner = project.metric_by_name.get(item.name) if item else None
        if inner is not None and inner.name not in seen:
            found = _first_measure(inner, project, seen + (metric.name,))
            if found:
                return found
    return None


def _choose_defaults(metrics: list[dict[str, Any]]) -> None:
    """Where the YAML marks no default aggregation of a measure, the average is meant ('delay by month')."""
    by_measure: dict[str, list[dict[str, Any]]] = {}
    for metric in metrics:
        if metric.get("measure"):
            by_measure.setdefault(metric["measure"], []).append(metric)
    for group in by_measure.values():
        if not any(m["default"] for m in group):
            choice = next((m for m in group if m["agg"] == "avg"), group[0])
            choice["default"] = True
