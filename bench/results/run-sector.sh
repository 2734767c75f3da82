#!/bin/sh
# OPAUC's Table 4 on sector (55,197 features), reduced to fit a 2-core machine: one
# trial of 3-fold CV, a 20% inner hold-out, 3,000 training rows, small grids.
set -x
A=${AUCOPT:-aucopt}
R=bench/results
$A experiment --protocol opauc --datasets sector --trials 1 --folds 3 --inner-folds 1 --max-train 3000 --workers 1 --out $R/opauc-sector.md \
   --grid 'opaucr=eta=2^[-6..-2];lambda=0.001' --grid 'opauc-f=eta=2^[-6..-2];lambda=0.001' --grid 'opauc-rp=eta=2^[-4..-2];lambda=0.001' \
   --grid 'oam-seq=C=2^[-4..4]' --grid 'oam-gra=C=2^[-4..4]' --grid 'uniexp=eta=2^[-6..0];lambda=0,0.0001'
