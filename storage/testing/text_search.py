"""``$text`` for the fake MongoDB: tokenise, score like the server, run the rest of the pipeline.

mongomock has no ``$text``. This gives the fake the behaviour Stepwise relies on: OR of
the query words, English stop words dropped, a light suffix stemmer, per-field weights and
MongoDB's term-frequency score (``fts_spec.cpp``, ``_scoreStringV2``), ``{"$meta":
"textScore"}`` in later stages, and the server's rule that a compound text index needs an
equality match on its prefix fields. Scores approximate the server's; order is what matters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import mongomock
from pymongo.errors import OperationFailure

SCORE_FIELD = "__fake_text_score__"

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with you your yours yourself yourselves""".split()
)
_WORD = re.compile(r"\w+", re.UNICODE)
_VOWEL = re.compile(r"[aeiouy]")


def stem(word: str) -> str:
    """Porter step 1a/1b, roughly: plurals and -ed/-ing endings."""
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3 and _VOWEL.search(base):
            return base
    return word


def terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


@dataclass(frozen=True)
class TextIndex:
    name: str
    prefix: tuple[str, ...]  # equality fields before the text fields
    weights: Mapping[str, float]  # text field -> weight


def text_index_from(
    name: str, keys: Iterable[tuple[str, Any]], weights: Mapping[str, float] | None
) -> TextIndex:
    prefix: list[str] = []
    text_fields: dict[str, float] = {}
    for field, kind in keys:
        if kind == "text":
            text_fields[field] = float((weights or {}).get(field, 1))
        elif not text_fields:
            prefix.append(field)
    return TextIndex(name=name, prefix=tuple(prefix), weights=text_fields)


def _field_scores(raw: str, weight: float) -> dict[str, float]:
    found = terms(raw)
    if not found:
        return {}
    helper: dict[str, list[float]] = {}  # term -> [exp, count, freq]
    for term in found:
        data = helper.setdefault(term, [0.0, 0.0, 0.0])
        data[0] = data[0] * 2 if data[0] else 1
        data[1] += 1
        data[2] += 1 / data[0]
    scores: dict[str, float] = {}
    for term, (_, count, freq) in helper.items():
        coeff = 0.5 * count / len(found) + 0.5
        adjustment = 1.1 if raw.lower() == term else 1.0
        scores[term] = weight * freq * coeff * adjustment
    return scores


def score(doc: Mapping[str, Any], index: TextIndex, query_terms: set[str]) -> float:
    total: dict[str, float] = {}
    for field, weight in index.weights.items():
        value = doc.get(field)
        if isinstance(value, str):
            for term, s in _field_scores(value, weight).items():
                total[term] = total.get(term, 0.0) + s
    return sum(s for term, s in total.items() if term in query_terms)


def _replace_meta(node: Any) -> Any:
    if isinstance(node, dict):
        if node == {"$meta": "textScore"}:
            return f"${SCORE_FIELD}"
        return {k: _replace_meta(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_meta(v) for v in node]
    return node


def aggregate_with_text(
    collection: mongomock.Collection, index: TextIndex | None, pipeline: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Run ``pipeline`` whose first stage is a ``$match`` holding ``$text``."""
    match = dict(pipeline[0]["$match"])
    text = match.pop("$text")
    if index is None:
        raise OperationFailure("text index required for $text query", code=27)
    for field in index.prefix:
        if field not in match or isinstance(match[field], dict):
            raise OperationFailure(
                "failed to use text index to satisfy $text query (if text index is compound, "
                "are equality predicates given for all prefix fields?)",
                code=2,
            )
    wanted = set(terms(text["$search"]))
    scored = []
    for doc in collection.find(match):
        value = score(doc, index, wanted)
        if value > 0:
            scored.append({**doc, SCORE_FIELD: value})
    if not scored:
        return []
    scratch = mongomock.MongoClient()["scratch"]["docs"]
    scratch.insert_many(scored)
    results = list(scratch.aggregate(_replace_meta(pipeline[1:])))
    for doc in results:
        doc.pop(SCORE_FIELD, None)
    return results
