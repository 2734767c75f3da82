// Package data reads labelled examples from data files and streams. It reads:
//
//   - LIBSVM/svmlight text, its indices numbered from 1 or from 0 (Options.Indices: said,
//     or from 0 when an index 0 occurs in the file, with a note saying so);
//   - CSV and TSV tables (told by name, or on a stream by a header line with separators
//     and no colon) and Parquet tables (by magic bytes or name), whose columns become the
//     label and features through a Schema (numeric columns as they are, categorical ones
//     by signed feature hashing);
//   - the binary cache (SaveCache), by its magic bytes;
//   - any of the text formats compressed with gzip, bzip2 or xz, by magic bytes;
//   - standard input (StdinName), pipes, FIFOs and devices (IsStream), read exactly once
//     into memory (ReadInput, ReadFileContext) and told by their bytes; a compressed
//     stream is decompressed as it is parsed, never held whole;
//   - rows a caller holds in memory: dense (NewDenseRows) or CSR (NewCSR) arrays.
//
// Each format registers itself (RegisterFormat, from its file's init: format.go lists
// the registry) with its extensions, magic bytes and capabilities; DetectFile tells an
// input's format and what a caller may do with it (stream it by passes, load it whole,
// read it as a table), so that no other package tests a file's name or bytes. The
// entries are Open (rows one at a time in constant memory: a Source), ReadInput and
// ReadFileContext (a whole Dataset, sparse or dense; LIBSVM text parsed in chunks on
// all cores), StreamRows (a reduction over all rows in one read, text in chunks on all
// cores: out-of-core training) and Load (a known dataset by name, KnownDatasets).
//
// Rows in memory have 0-based kernels.Sparse indices. Labels map to +1/−1 by the
// conventions of the LIBSVM collection ({+1, −1}, {1, 0}, {1, 2}: 1 is positive) unless
// a positive label is named (one-vs-rest), by the one set of rules in labels.go that
// every path uses (LabelRule, LabelSet). Every error in a file names the file, line and
// column and quotes the offending token.
package data
