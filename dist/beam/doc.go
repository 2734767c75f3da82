// Package aucbeam runs aucopt on Apache Beam: pipelines that read shards with Beam's
// file IO (a local glob, or any filesystem Beam supports: gs://, s3://, …) — LIBSVM
// text, or CSV, TSV or Parquet tables read by engine/data with `aucopt train`'s table
// options (data.TableOptions; every shard must give the same schema) — and
//
//  1. accumulate the per-class moments with a CombineFn whose accumulator is aucopt's
//     stats.ClassMoments (the class Moments, merged exactly), then solve on the
//     launcher: ls-auc and MBA with every pair (pairs=all), the same weights as
//     `aucopt train` on the concatenated shards (TrainMoments);
//  2. fan a hyper-parameter grid × folds out as independent work items, each a fit
//     through aucopt's library, gather the validation AUCs, pick the best and refit it
//     on all rows (Grid);
//  3. evaluate a model on a sharded test set: the exact AUC from counts of positives
//     and negatives per distinct score, merged, equal to `aucopt eval` on the
//     concatenated file (Eval).
//
// The shards of a glob are read as the concatenation of the matched files in the order
// of their names would be by one reader: labels follow data.Reader's rules over all of
// them, and a malformed line fails the pipeline with the error naming its file and
// line. The module has its own go.mod so that the core module does not depend on Beam.
//
// Beam needs its DoFns, CombineFns and coders registered before the pipeline is built;
// this package does it in its init functions (Beam's required pattern), which is the
// only package-level state it has.
package aucbeam
