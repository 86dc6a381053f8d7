"""The learned words and verified queries as dbt YAML the team can review and commit beside its model:
words as `config.meta` on the semantic model (`entity_words`: what its rows are called), its dimensions
and the metrics (`synonyms`); verified queries as `saved_queries:` with the question as description
and the phrasings, the author and the date in `config.meta`."""

from __future__ import annotations

from typing import Any

import yaml

from agent.learning.store import LearnedWord, VerifiedQuery


def words_overlay(words: list[LearnedWord], workspace: str) -> str:
    models: dict[str, dict[str, Any]] = {}
    metrics: dict[str, list[str]] = {}
    context = sorted(w.word for w in words if w.kind == "context")
    for word in sorted(words, key=lambda w: w.word):
        if word.kind == "context":
            continue
        if word.kind == "metric":
            metrics.setdefault(word.name, []).append(word.word)
            continue
        model = models.setdefault(word.table or word.name, {"name": word.table or word.name, "dimensions": {}})
        if word.kind == "definition" and word.definition:
            model.setdefault("defined", []).append(word.definition)
        elif word.kind == "entity":
            model.setdefault("entity_words", []).append(word.word)
        else:
            model["dimensions"].setdefault(word.name, []).append(word.word)
    for model in models.values():  # a defined measure is a metric too, as dbt declares them
        for d in model.get("defined", []):
            if d["kind"] == "measure":
                metrics.setdefault(d["name"], [])
    document: dict[str, Any] = {}
    if models:
        document["semantic_models"] = [_semantic_model(m) for _, m in sorted(models.items())]
    if metrics:
        defined = {d["name"]: d for m in models.values() for d in m.get("defined", [])}
        document["metrics"] = [_metric(n, s, defined.get(n)) for n, s in sorted(metrics.items())]
    head = (f"# Words learned in workspace {workspace} (python -m agent vocabulary export).\n"
            "# An overlay on the semantic model: review it, then commit it beside the model's YAML.\n")
    if context:  # dbt has no place for them: the vocabulary's context_words does
        head += f"# Words that only name the data (add them to context_words): {', '.join(context)}\n"
    return head + (yaml.safe_dump(document, sort_keys=False, allow_unicode=True) if document else "{}\n")


def _metric(name: str, synonyms: list[str], defined: dict[str, Any] | None) -> dict[str, Any]:
    if defined is None:
        return {"name": name, "config": {"meta": {"synonyms": synonyms}}}
    return {"name": name, "label": defined["label"], "type": "simple", "type_params": {"measure": name}}


def _semantic_model(model: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": model["name"]}
    if model.get("entity_words"):
        out["config"] = {"meta": {"entity_words": model["entity_words"]}}
    defined = model.get("defined", [])
    measures = [{"name": d["name"], "label": d["label"], "agg": {"average": "average"}.get(d["agg"], d["agg"]),
                 "expr": d["expr"]} for d in defined if d["kind"] == "measure"]
    if measures:
        out["measures"] = measures
    dimensions = [{"name": n, "config": {"meta": {"synonyms": s}}} for n, s in sorted(model["dimensions"].items())]
    dimensions += [{"name": d["name"], "label": d["label"], "type": "categorical", "expr": d["expr"],
                    "config": {"meta": {"kind": "flag"}}} for d in defined if d["kind"] == "condition"]
    if dimensions:
        out["dimensions"] = dimensions
    return out


def saved_queries(queries: list[VerifiedQuery], workspace: str) -> str:
    entries = [_saved_query(q) for q in sorted(queries, key=lambda q: q.name)]
    head = (f"# Verified queries of workspace {workspace} (python -m agent verified export), as dbt saved_queries.\n")
    return head + yaml.safe_dump({"saved_queries": entries}, sort_keys=False, allow_unicode=True)


def _saved_query(query: VerifiedQuery) -> dict[str, Any]:
    intent = query.intent
    group_by = [_group(d) for d in intent.get("dimensions") or []]
    where = [_where(f) for f in intent.get("filters") or []]
    time = intent.get("time") or {}
    day = f"{{{{ TimeDimension('{intent.get('time_dimension') or 'metric_time'}', 'day') }}}}"
    start, end = time.get("start"), time.get("end")
    if time.get("year") and not (start or end):
        start, end = f"{time['year']}-01-01", f"{time['year'] + 1}-01-01"
    if start:
        where.append(f"{day} >= '{start}'")
    if end:
        where.append(f"{day} < '{end}'")
    params: dict[str, Any] = {"metrics": list(intent.get("metrics") or [])}
    if group_by:
        params["group_by"] = group_by
    if where:
        params["where"] = where
    return {
        "name": query.name,
        "description": query.question,
        "query_params": params,
        "config": {"meta": {"phrasings": query.phrasings or [query.question], "saved_by": query.saved_by,
                            "saved_at": query.saved_at, "tables": query.tables}},
    }


def _group(dimension: str) -> str:
    base, _, grain = dimension.rpartition("__")
    if base and grain in ("day", "week", "month", "quarter", "year"):
        return f"TimeDimension('{base}', '{grain}')"
    return f"Dimension('{dimension}')"


def _where(flt: dict[str, Any]) -> str:
    values = flt.get("values") or []
    op = flt.get("op") or "="
    quoted = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values)
    field = f"{{{{ Dimension('{flt.get('field')}') }}}}"
    if op in ("=", "in") and len(values) != 1:
        return f"{field} IN ({quoted})"
    if op in ("=", "in"):
        return f"{field} = {quoted}"
    if op in ("!=", "not in"):
        return f"{field} NOT IN ({quoted})"
    return f"{field} {op} {quoted}"
