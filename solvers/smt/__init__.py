"""The one door to Z3. No module outside this package imports z3.

Every solver made here has a fixed random seed and a deterministic resource limit (`rlimit`,
which unlike a timeout gives the same answer on every machine and every run). `unknown` is never
a pass: it raises `SolverUnknown` naming the limit that was hit. Z3's own exceptions are wrapped
in `SolverFailure`. Formulas are built with a small vocabulary so the encodings read as logic
and stay typed; encodings made in bulk and checked thousands of times (the combat layer's) use
`Formula` and `BoolSolver`, which go to Z3's C API without z3.py's objects.

Z3 objects are not thread-safe: use processes, not threads, to solve in parallel.

Callers use the names below as `smt.X` (`from solvers import smt`); each lives in a module of
one job:

- `limits`: the seed, the resource limit, the wall-clock deadline (`wall_clock`), and the
  errors a check raises;
- `vocabulary`: formulas as z3.py terms (`and_`, `at_most`, ...) and their values in a model;
- `text`: the same vocabulary as SMT-LIB text, parsed in one call, for formulas built in bulk;
- `solver`: `Solver`, with clause-labelled constraints and their cores, and `Reader`;
- `native`: `Formula` and `BoolSolver`, through Z3's C API;
- `symbolic`: `Z3Ops` (`solvers.checking.terms` over Z3) and operations on its terms.
"""

from __future__ import annotations

from solvers.smt.limits import (
    DEFAULT_RLIMIT,
    SEED,
    BudgetSpent,
    SolverFailure,
    SolverUnknown,
    wall_clock,
)
from solvers.smt.native import BoolSolver, Formula
from solvers.smt.solver import Reader, Solver, counter_model, disjoint_cores
from solvers.smt.symbolic import (
    Z3,
    Z3Ops,
    bottom_up,
    for_all,
    formula,
    fresh_bool,
    fresh_int,
    is_bool,
    is_eq,
    is_false,
    is_int,
    is_int_value,
    is_ite,
    is_or,
    names_in,
    simplify,
    structurally_equal,
    substitute,
    value_of,
    value_term,
    within,
)
from solvers.smt.text import (
    Atoms,
    constants,
    declare,
    parse_formula,
    t_and,
    t_at_least,
    t_at_most,
    t_implies,
    t_not,
    t_or,
)
from solvers.smt.vocabulary import (
    Bool,
    Int,
    Model,
    add,
    and_,
    at_least,
    at_most,
    bool_var,
    const,
    eq,
    exactly,
    false,
    iff,
    implies,
    int_value,
    int_var,
    is_true,
    ite,
    le,
    lt,
    not_,
    or_,
    true,
    weighted_at_most,
)

__all__ = [
    "DEFAULT_RLIMIT",
    "SEED",
    "Z3",
    "Atoms",
    "Bool",
    "BoolSolver",
    "BudgetSpent",
    "Formula",
    "Int",
    "Model",
    "Reader",
    "Solver",
    "SolverFailure",
    "SolverUnknown",
    "Z3Ops",
    "add",
    "and_",
    "at_least",
    "at_most",
    "bool_var",
    "bottom_up",
    "const",
    "constants",
    "counter_model",
    "declare",
    "disjoint_cores",
    "eq",
    "exactly",
    "false",
    "for_all",
    "formula",
    "fresh_bool",
    "fresh_int",
    "iff",
    "implies",
    "int_value",
    "int_var",
    "is_bool",
    "is_eq",
    "is_false",
    "is_int",
    "is_int_value",
    "is_ite",
    "is_or",
    "is_true",
    "ite",
    "le",
    "lt",
    "names_in",
    "not_",
    "or_",
    "parse_formula",
    "simplify",
    "structurally_equal",
    "substitute",
    "t_and",
    "t_at_least",
    "t_at_most",
    "t_implies",
    "t_not",
    "t_or",
    "true",
    "value_of",
    "value_term",
    "wall_clock",
    "weighted_at_most",
    "within",
]
