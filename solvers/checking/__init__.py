"""The checking toolchain: transition systems, the prover (induction, bounded model checking),
the refinement check, the ambiguity explorer, the gap search, witness shrinking, clause reach."""
