// Package data reads labelled examples: LIBSVM/svmlight text (plain, gzip, bzip2 or xz,
// detected by magic bytes), streamed one row at a time in constant memory or loaded
// into a compressed-sparse-row Dataset.
//
// Indices in files are 1-based; rows in memory are 0-based kernels.Sparse. Labels map
// to +1/−1 by the conventions of the LIBSVM collection ({+1, −1}, {1, 0}, {1, 2}: 1 is
// positive) unless a positive label is named (one-vs-rest). Every error in a file names
// the file, line and column and quotes the offending token.
package data
