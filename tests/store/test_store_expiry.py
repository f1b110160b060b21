"""The expiry wheel: keys come back once, when their second has passed, wherever they moved."""

from __future__ import annotations

from dialogkit.store._expiry import ExpiryWheel


def test_keys_are_due_after_their_expiry_only() -> None:
    wheel = ExpiryWheel()
    wheel.schedule("a", 10.5)
    wheel.schedule("b", 12.0)
    assert wheel.due(10.9) == []
    assert wheel.due(11.0) == ["a"]
    assert wheel.due(11.5) == []
    assert wheel.due(12.0) == ["b"]
    assert len(wheel) == 0


def test_renewing_moves_a_key_and_discard_forgets_it() -> None:
    wheel = ExpiryWheel()
    wheel.schedule("a", 10)
    wheel.schedule("a", 20)
    wheel.schedule("b", 10)
    wheel.discard("b")
    assert wheel.due(15) == []
    assert wheel.due(20) == ["a"]


def test_the_heap_holds_one_entry_per_second_not_per_renewal() -> None:
    wheel = ExpiryWheel()
    for renewal in range(1000):
        for key in range(50):
            wheel.schedule(f"k{key}", 100 + renewal % 3)
    assert len(wheel) == 50
    assert len(wheel._seconds) <= 3
    assert sorted(wheel.due(200)) == sorted(f"k{key}" for key in range(50))
