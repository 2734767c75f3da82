package solver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// PrePasser is an online learner that, by its parameters, takes p = P(y = 1) and the
// class means from a pre-pass over its training data instead of estimating them as it
// goes (SPAM with prepass=true, as the C reference implementation computes them).
type PrePasser interface {
	Online
	// WantsPrePass reports whether the learner still needs its moments: it was made
	// with the pre-pass option and has seen no example.
	WantsPrePass() bool
	// SetMoments fixes the class means (padded with zeros to the learner's dimension)
	// and p before the first example.
	SetMoments(meanPos, meanNeg []float64, p float64) error
}

var _ PrePasser = (*SPAM)(nil)

// ErrNoPrePass is wrapped by the error of a training path that cannot make the pre-pass
// a learner asks for.
var ErrNoPrePass = errors.New("the pre-pass of prepass=true cannot run here")

// classSums accumulates the per-class counts and feature sums of a pre-pass.
type classSums struct {
	nPos, nNeg int64
	pos, neg   []float64
}

// add adds one example.
func (c *classSums) add(x kernels.Sparse, y int8) {
	sum := &c.neg
	if y == 1 {
		c.nPos++
		sum = &c.pos
	} else {
		c.nNeg++
	}
	if n := len(x.Idx); n > 0 {
		if need := int(x.Idx[n-1]) + 1; need > len(*sum) {
			*sum = append(*sum, make([]float64, need-len(*sum))...)
		}
	}
	for k, j := range x.Idx {
		(*sum)[j] += x.Val[k]
	}
}

// set divides the sums by the counts and hands the moments to l.
func (c *classSums) set(l PrePasser, name string) error {
	if c.nPos == 0 || c.nNeg == 0 {
		return fmt.Errorf("pre-pass over %s: %w (%d positives, %d negatives)", name, ErrOneClass, c.nPos, c.nNeg)
	}
	for j := range c.pos {
		c.pos[j] /= float64(c.nPos)
	}
	for j := range c.neg {
		c.neg[j] /= float64(c.nNeg)
	}
	if err := l.SetMoments(c.pos, c.neg, float64(c.nPos)/float64(c.nPos+c.nNeg)); err != nil {
		return fmt.Errorf("pre-pass over %s: %w", name, err)
	}
	return nil
}

// PrePass gives l the class moments of the in-memory training set d when l asks for
// them (a PrePasser whose WantsPrePass is true), and does nothing otherwise. Callers
// that feed a learner rows of d themselves call it before the first row.
func PrePass(l Online, d *data.Dataset) error {
	pp, ok := l.(PrePasser)
	if !ok || !pp.WantsPrePass() {
		return nil
	}
	var c classSums
	for i := range d.Rows() {
		c.add(d.Row(i), d.Y[i])
	}
	return c.set(pp, d.Name)
}

// prePassSource reads pass 0 of src once more for the learner's moments (solver.Run):
// every Source re-opens its data for each pass, so the training stream is read twice.
func prePassSource(ctx context.Context, l PrePasser, src Source) error {
	stream, err := src.Pass(0)
	if err != nil {
		return fmt.Errorf("pre-pass: %w", err)
	}
	if cl, ok := stream.(io.Closer); ok {
		defer cl.Close()
	}
	var c classSums
	for k := 0; ; k++ {
		if k&1023 == 0 && ctx.Err() != nil {
			return fmt.Errorf("pre-pass: %w", ctx.Err())
		}
		ex, err := stream.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("pre-pass: %w", err)
		}
		if ex.Y != 1 && ex.Y != -1 {
			return fmt.Errorf("pre-pass: %s: example %d has label %v, not mapped to ±1", src.Name(), ex.Line, ex.Label)
		}
		c.add(ex.X, ex.Y)
	}
	return c.set(l, src.Name())
}

// refusePrePass returns an error wrapping ErrNoPrePass and ErrParam (a setting that
// cannot take effect) when the learner asks for a pre-pass, for the training paths that
// feed rows in pieces (the grid search).
func refusePrePass(l Online, where string) error {
	if pp, ok := l.(PrePasser); ok && pp.WantsPrePass() {
		return fmt.Errorf("%w: %w: %s feeds the rows fold by fold without one (use prepass=false, or aucopt train)", ErrParam, ErrNoPrePass, where)
	}
	return nil
}
