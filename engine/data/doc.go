// Package data reads labelled examples from data files and streams:
//
//   - LIBSVM/svmlight text, its indices numbered from 1 or from 0 (Options.Indices: said,
//     or from 0 when an index 0 occurs in the file);
//   - CSV and TSV tables (told by name, or on a stream by a header line with separators
//     and no colon) and Parquet tables (by magic bytes or name), whose columns become the
//     label and features through a Schema (numeric columns as they are, categorical ones
//     by signed feature hashing);
//   - the binary cache (SaveCache), by its magic bytes;
//   - any of the text formats compressed with gzip, bzip2 or xz, by magic bytes;
//   - standard input (StdinName), pipes, FIFOs and devices (IsStream), read exactly once
//     into memory (ReadInput, ReadFileContext) and told by their bytes.
//
// Rows are streamed one at a time in constant memory (Open, Reader) or loaded into a
// Dataset, sparse or dense, LIBSVM text on all cores (ReadInput, ReadFileContext).
//
// Rows in memory have 0-based kernels.Sparse indices. Labels map to +1/−1 by the
// conventions of the LIBSVM collection ({+1, −1}, {1, 0}, {1, 2}: 1 is positive) unless
// a positive label is named (one-vs-rest). Every error in a file names the file, line
// and column and quotes the offending token.
package data
