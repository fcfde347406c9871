"""The random-operation mix of the seeded sequences (Spec/conformance.md §7.3), written once
for the cache sequences and the variant sequences.

A mix is a list of (bound, operation) pairs in ascending order of bound: a roll of
`rng.random()` picks the first operation whose bound is above it, and the last pair, with the
bound None, takes the rest. Each operation draws what else it needs from the same generator,
so a sequence depends on its seed alone.
"""


def pick(roll, mix):
    """The operation of `mix` that `roll` (0 <= roll < 1) falls on."""
    for bound, operation in mix:
        if bound is None or roll < bound:
            return operation
    raise ValueError("the last pair of a mix takes the rest: its bound is None")


def run_mix(scenario, rng, steps, keys, mix, reopen_while_read_only):
    """Appends `steps` operations to `scenario`, each on a key drawn from `keys`. While the
    cache is read-only, a roll below `reopen_while_read_only[0]` reopens it instead, read-only
    again with the probability `reopen_while_read_only[1]`, so no sequence stays read-only
    for long. An operation is called as operation(scenario, rng, key, step)."""
    bound, again = reopen_while_read_only
    for step in range(steps):
        key = rng.choice(keys)
        roll = rng.random()
        if scenario.model.read_only and roll < bound:
            scenario.reopen(read_only=rng.random() < again)
        else:
            pick(roll, mix)(scenario, rng, key, step)
