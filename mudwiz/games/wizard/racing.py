"""The arithmetic of ``hard``'s race (:meth:`mudwiz.games.wizard.levels.WizardHard.race`), in a module the build
compiles: every 8 deals the race weighs each option's row of round scores and each option's paired differences
with the leader, a sum over every deal so far. As interpreted generators those sums cost a fifth of a decision's
CPU; compiled they cost a few percent. The same additions in the same order as ``sum`` over a generator, so a seed
plays the same moves compiled or not."""

from __future__ import annotations


def weighted_sum(weights: list[float], row: list[float]) -> float:
    """Σ weight × score over the deals of ``row`` (its first ``len(row)`` weights)."""
    total = 0.0
    for i in range(len(row)):
        total += weights[i] * row[i]
    return total


def paired_spread(weights: list[float], leader: list[float], other: list[float], gap: float) -> float:
    """Σ weight × (leader's score − the other's − ``gap``)² over the deals: the spread of the paired differences
    about their mean ``gap``."""
    total = 0.0
    for i in range(len(weights)):
        total += weights[i] * (leader[i] - other[i] - gap) ** 2
    return total
