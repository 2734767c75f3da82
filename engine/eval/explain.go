package eval

import "strings"

// explanations gives, for a cell more than one published std below the paper
// (protocol/dataset/algo), what differs: the data version, a protocol detail, or a
// defect (a defect gets fixed, not explained). Written after reading the results in
// bench/results; a cell below the paper without an entry says "not yet explained".
var explanations = map[string]string{}

// explain copies the explanations into the cells that are below the paper.
func (r *Report) explain() {
	for _, t := range r.Tables {
		for d, row := range t.Cells {
			for a, c := range row {
				if c.Below {
					c.Explain = explanations[r.Protocol+"/"+d+"/"+a]
					if c.Explain == "" && (d == "fashion-mnist" || c.Paper != nil && len(c.Paper.Source) > 0 && strings.Contains(c.Paper.Source, "mnist")) {
						c.Explain = "data version: Fashion-MNIST stands in for the paper's MNIST and is a harder problem (its classes grouped at random), so the paper's MNIST number is not reachable"
					}
				}
			}
		}
	}
}
