package data

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"testing"
)

// a9aText returns the text to parse: the file named by $AUCOPT_PARSE_FILE (bench/parse.sh
// sets it so that scikit-learn parses the same bytes), else the embedded a9a training
// set rendered as LIBSVM text, the shape of file the parse-speed target is stated for.
func a9aText(b *testing.B) []byte {
	b.Helper()
	if p := os.Getenv("AUCOPT_PARSE_FILE"); p != "" {
		text, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return text
	}
	b.Setenv(EnvData, b.TempDir())
	sp, err := Load("a9a", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return formatText(sp.Train)
}

// formatText renders d as LIBSVM text (labels as ±1, values in the shortest form).
func formatText(d *Dataset) []byte {
	var buf bytes.Buffer
	for i := range d.Rows() {
		if d.Y[i] > 0 {
			buf.WriteString("+1")
		} else {
			buf.WriteString("-1")
		}
		r := d.Row(i)
		for k, j := range r.Idx {
			buf.WriteByte(' ')
			buf.WriteString(strconv.Itoa(int(j) + 1))
			buf.WriteByte(':')
			buf.WriteString(strconv.FormatFloat(r.Val[k], 'g', -1, 64))
		}
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// BenchmarkParse measures streaming parse speed; SetBytes counts the text's bytes.
func BenchmarkParse(b *testing.B) {
	text := a9aText(b)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r, _ := NewReader(bytes.NewReader(text), "a9a", Options{})
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}

// BenchmarkReadFile measures ReadFileContext on the file named by $AUCOPT_LOAD_FILE
// (skipped without it), with $AUCOPT_LOAD_WORKERS workers (0: all cores).
func BenchmarkReadFile(b *testing.B) {
	p := os.Getenv("AUCOPT_LOAD_FILE")
	if p == "" {
		b.Skip("set AUCOPT_LOAD_FILE to a data file")
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	workers, _ := strconv.Atoi(os.Getenv("AUCOPT_LOAD_WORKERS"))
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := ReadFileContext(context.Background(), p, Options{}, ReadConfig{Workers: workers}); err != nil {
			b.Fatal(err)
		}
	}
}
