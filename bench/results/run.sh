#!/bin/sh
# The commands that produced bench/results (2-core AMD EPYC, shared; seed 1).
# Small sets run the papers' full protocols; the large ones (a9a for every algorithm,
# w8a, letter, magic04, fashion-mnist, sector) a reduced one, stated in each file's
# "Reduced protocol" list.
set -x
A=${AUCOPT:-aucopt}
R=bench/results
$A experiment --protocol opauc  --datasets diabetes,fourclass,german,splice --out $R/opauc-small.md
$A experiment --protocol thesis --datasets diabetes,fourclass,german,splice,svmguide3,ionosphere --out $R/thesis-small.md
$A experiment --protocol ubauc  --datasets diabetes,fourclass,german,splice --out $R/ubauc-small.md
$A experiment --protocol mba    --datasets german,mushrooms,phishing,svmguide3 --runs 5 --out $R/mba-small.md \
   --grid 'mb-psl=eta=2^[-8..0];lambda=0,0.0001' --grid 'mb-phl=eta=2^[-8..0];lambda=0,0.0001'
$A experiment --protocol mba-sim --runs 10 --out $R/mba-sim.md --grid 'adaoam=eta=2^[-6..0];lambda=0.0001' --grid 'olr=eta=2^[-6..0];lambda=0,0.0001' 
$A experiment --protocol opauc  --datasets a9a,letter,magic04 --trials 1 --inner-folds 1 --out $R/opauc-large.md
$A experiment --protocol mba    --datasets a9a --runs 3 --out $R/mba-a9a.md \
   --grid 'mb-psl=eta=2^[-8..0];lambda=0,0.0001' --grid 'mb-phl=eta=2^[-8..0];lambda=0,0.0001' --grid 'adaoam=eta=2^[-8..-2];lambda=0.0001'
$A experiment --protocol thesis --datasets a9a --trials 1 --inner-folds 1 --out $R/thesis-a9a.md
# stopped (ubauc-batch: 220 s per model on a9a): $A experiment --protocol ubauc --datasets a9a --runs 5 --out $R/ubauc-a9a.md
# (run reduced below, session exp2)
# The speed target: OPAUC alone on a9a, 5 x 5 CV over the 23 x 13 grid, with the
# cheaper inner 20% hold-out and with the paper's inner 5-fold CV.
$A experiment --protocol opauc --datasets a9a --algos opauc --inner-folds 1 --out $R/opauc-a9a-holdout.md
$A experiment --protocol opauc --datasets a9a --algos opauc --out $R/opauc-a9a.md

# Session exp2: the datasets issue 8 still lacked, reduced to fit a shared 2-core machine
# (one job at a time, --workers 1), after unilog and uniexp gained their bias term.
# opauc-large and opauc-small were re-run with that build (same seed: only the unilog
# and uniexp cells change). OPAUC's cut grid 2^[-10..-6] is too high for min-max scaled
# Fashion-MNIST and too low for the thesis' normalised rows (the choice sat on its edge);
# opauc-fmnist uses 2^[-14..-8], where the choice is interior.
$A experiment --protocol opauc  --datasets w8a --trials 1 --inner-folds 1 --workers 1 --out $R/opauc-w8a.md
$A experiment --protocol opauc  --datasets a9a,letter,magic04 --trials 1 --inner-folds 1 --workers 1 --out $R/opauc-large.md
$A experiment --protocol opauc  --datasets diabetes,fourclass,german,splice --workers 1 --out $R/opauc-small.md
$A experiment --protocol ubauc  --datasets a9a --runs 5 --workers 1 --out $R/ubauc-a9a.md --grid 'ubauc-batch=beta=0.1,1,10;gamma=1,100'
$A experiment --protocol ubauc  --datasets w8a --runs 5 --workers 1 --out $R/ubauc-w8a.md --grid 'ubauc-batch=beta=0.1,1,10;gamma=1,100'
$A experiment --protocol opauc  --datasets fashion-mnist --trials 1 --inner-folds 1 --max-train 8000 --workers 1 --out $R/opauc-fmnist.md \
   --grid 'opauc=eta=2^[-14..-8];lambda=0.001,0.01,0.1'
$A experiment --protocol mba    --datasets fashion-mnist --runs 2 --max-train 5000 --workers 1 --out $R/mba-fmnist.md \
   --algos mba-l2,mba-l1,olr,ftrl,oam-seq,adaoam --grid 'adaoam=eta=2^[-8..-2];lambda=0.0001'
$A experiment --protocol thesis --datasets fashion-mnist --trials 1 --folds 3 --inner-folds 1 --max-train 3000 --workers 1 --out $R/thesis-fmnist.md \
   --grid 'opauc=eta=2^[-10..-6];lambda=0.001,0.01,0.1'
$A experiment --protocol ubauc  --datasets fashion-mnist --runs 5 --max-train 8000 --workers 1 --out $R/ubauc-fmnist.md \
   --grid 'ubauc-batch=beta=0.1,1,10;gamma=1,100' --grid 'opauc=eta=2^[-10..-6];lambda=0.001,0.01,0.1'
$A experiment --protocol ubauc  --datasets sector --algos ubauc-online,solam --runs 5 --workers 1 --out $R/ubauc-sector.md
$A experiment --protocol thesis --datasets sector --algos solam,spam-l2,spam-net,spdam,fsauc --trials 1 --inner-folds 1 --workers 1 --out $R/thesis-sector.md

# Session 3 (after the shared inner-fold prefixes, the span coordinates for OPAUC's
# selection and one-worker backends per concurrent job): the speed target, the full
# simulation, thesis-a9a at SOLAM's current defaults (R = 10; the old table had R = √(2/λ)),
# and the OPAUC protocol on a9a, letter and magic04 as the paper ran it.
$A experiment --protocol opauc --datasets a9a --algos opauc --out $R/opauc-a9a.md
$A experiment --protocol opauc --datasets a9a --algos opauc --inner-folds 1 --out $R/opauc-a9a-holdout.md
$A experiment --protocol mba-sim --runs 50 --workers 1 --out $R/mba-sim.md --grid 'adaoam=eta=2^[-6..0];lambda=0.0001' --grid 'olr=eta=2^[-6..0];lambda=0,0.0001'
$A experiment --protocol thesis --datasets a9a --inner-folds 1 --out $R/thesis-a9a.md
$A experiment --protocol opauc  --datasets a9a,letter,magic04 --out $R/opauc-large.md
# Tables whose explanations changed (the SOLAM audit) re-rendered from their runs:
for f in thesis-sector ubauc-w8a ubauc-sector; do $A experiment --render $R/$f.json --out $R/$f.md; done
$A experiment --protocol opauc  --datasets w8a --out $R/opauc-w8a.md
$A experiment --protocol ubauc  --datasets a9a --out $R/ubauc-a9a.md --grid 'ubauc-batch=beta=0.1,1,10;gamma=1,100'
