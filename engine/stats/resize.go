package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// Resize returns new moments of dimension d on the same backend: the marginal moments
// of the first d features when d < Dim, or the moments padded with d − Dim features
// that are 0 in every row (mean 0, no scatter) when d > Dim. Both are exact, which is
// what lets shards that saw different largest feature indices merge. m is unchanged.
func (m *Moments) Resize(d int) *Moments {
	if d < 0 {
		panic(fmt.Sprintf("stats: Moments.Resize: dimension %d", d))
	}
	out := NewMoments(m.b, d)
	out.n, out.w, out.weighted = m.n, m.w, m.weighted
	k := min(d, m.d)
	if k == 0 {
		return out
	}
	m.b.Copy(out.mean.Slice(0, k), m.mean.Slice(0, k))
	for i := range k {
		m.b.Copy(out.scatter.Row(i).Slice(i, k), m.scatter.Row(i).Slice(i, k))
	}
	return out
}

// Affine transforms the moments in place into those of the rows x' = scale∘x + shift
// (a per-feature affine map such as min-max scaling): m' = scale∘m + shift and
// S'_ij = scale_i·scale_j·S_ij. It is exact, so a map fitted in the same pass as the
// moments (from per-feature minima and maxima) needs no second pass over the rows.
func (m *Moments) Affine(scale, shift []float64) {
	if len(scale) != m.d || len(shift) != m.d {
		panic(fmt.Sprintf("stats: Moments.Affine: %d scales and %d shifts, want %d", len(scale), len(shift), m.d))
	}
	d := m.d
	mean := make([]float64, d)
	m.b.Download(mean, m.mean)
	if m.n > 0 {
		for j := range mean {
			mean[j] = scale[j]*mean[j] + shift[j]
		}
	}
	m.b.Upload(m.mean, mean)
	sc := make([]float64, d*d)
	m.b.Download(sc, m.scatter)
	for i := range d {
		for j := i; j < d; j++ {
			sc[i*d+j] *= scale[i] * scale[j]
		}
	}
	m.b.Upload(m.scatter, sc)
}

// momentsMagic starts an encoded Moments.
const momentsMagic = "AUCM1"

// ErrEncoding is wrapped by the errors of decoding malformed moments.
var ErrEncoding = errors.New("stats: malformed encoded moments")

// MarshalBinary encodes the moments: a magic string, d and n, the mean and the upper
// triangle of the scatter, little-endian. The encoding does not depend on the backend.
// Weighted moments have no encoding (an error).
func (m *Moments) MarshalBinary() ([]byte, error) {
	if m.weighted {
		return nil, errors.New("stats: weighted moments have no encoding")
	}
	d := m.d
	out := make([]byte, 0, len(momentsMagic)+16+8*(d+d*(d+1)/2))
	out = append(out, momentsMagic...)
	out = binary.LittleEndian.AppendUint64(out, uint64(d))
	out = binary.LittleEndian.AppendUint64(out, uint64(m.n))
	for _, v := range m.Mean() {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	sc := make([]float64, d*d)
	m.b.Download(sc, m.scatter)
	for i := range d {
		for _, v := range sc[i*d+i : (i+1)*d] {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
	}
	return out, nil
}

// UnmarshalMoments decodes moments written by MarshalBinary onto backend b. It returns
// the number of bytes read, so that encodings can be concatenated.
func UnmarshalMoments(b kernels.Backend, buf []byte) (*Moments, int, error) {
	if len(buf) < len(momentsMagic)+16 || string(buf[:len(momentsMagic)]) != momentsMagic {
		return nil, 0, fmt.Errorf("%w: no header", ErrEncoding)
	}
	p := len(momentsMagic)
	d64 := binary.LittleEndian.Uint64(buf[p:])
	n64 := binary.LittleEndian.Uint64(buf[p+8:])
	p += 16
	if d64 > 1<<24 || n64 > math.MaxInt64 {
		return nil, 0, fmt.Errorf("%w: dimension %d, count %d", ErrEncoding, d64, n64)
	}
	d := int(d64)
	need := 8 * (d + d*(d+1)/2)
	if len(buf)-p < need {
		return nil, 0, fmt.Errorf("%w: %d bytes for dimension %d, want %d", ErrEncoding, len(buf)-p, d, need)
	}
	m := NewMoments(b, d)
	m.n = int64(n64)
	m.w = float64(m.n)
	next := func() float64 {
		v := math.Float64frombits(binary.LittleEndian.Uint64(buf[p:]))
		p += 8
		return v
	}
	mean := make([]float64, d)
	for j := range mean {
		mean[j] = next()
	}
	b.Upload(m.mean, mean)
	sc := make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			sc[i*d+j] = next()
		}
	}
	b.Upload(m.scatter, sc)
	return m, p, nil
}
