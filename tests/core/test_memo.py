"""Bounded caches drop their oldest entries one at a time, never everything at once."""

from __future__ import annotations

from ludus.core import memo
from ludus.core.memo import BoundedMemo, derived


def test_bounded_memo_makes_each_value_once_and_evicts_the_oldest():
    made = []
    m = BoundedMemo(lambda k: made.append(k) or k * 10, maxsize=3)
    assert [m[1], m[2], m[1], m[3]] == [10, 20, 10, 30]
    assert made == [1, 2, 3]
    assert m[4] == 40  # full: the oldest (1) goes, the others stay
    assert sorted(m) == [2, 3, 4]
    assert m[2] == 20 and made == [1, 2, 3, 4]


def test_derived_keeps_recently_used_tables_when_full():
    builds = []

    def build(source):
        builds.append(source)
        return len(source)

    keep = ("kept",)
    derived(keep, build)
    sources = [(i,) for i in range(memo._DERIVED_MAX + 10)]
    for s in sources:
        derived(s, build)
        derived(keep, build)  # used all along: never evicted
    assert builds.count(keep) == 1
    assert len(memo._DERIVED) <= memo._DERIVED_MAX
    derived(sources[-1], build)
    assert builds.count(sources[-1]) == 1
