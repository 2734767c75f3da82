package experiment

import (
	"fmt"
	"strconv"
	"strings"
)

// PaperCell is a published mean ± std (AUC as a fraction) and where it was printed.
type PaperCell struct {
	Mean   float64 `json:"mean"`
	Std    float64 `json:"std"`
	Source string  `json:"source"` // table of the paper
}

// published holds the papers' numbers: protocol → dataset → algorithm. Each block is
// transcribed from the seeds' text (../shared/seeds) with its table in a comment;
// fashion-mnist rows carry the papers' mnist numbers (Fashion-MNIST is the stand-in
// for MNIST here, and is harder).
var published = map[string]map[string]map[string]PaperCell{}

// row records one printed table row: cells "mean±std" for algos in order; "" or "-"
// for a column the paper left empty. scale is 1 for fractions, 100 for percentages.
func row(protocol, source, dataset string, algos []string, scale float64, cells ...string) {
	if len(cells) != len(algos) {
		panic(fmt.Sprintf("eval: %s %s row: %d cells for %d algorithms", protocol, dataset, len(cells), len(algos)))
	}
	if published[protocol] == nil {
		published[protocol] = map[string]map[string]PaperCell{}
	}
	if published[protocol][dataset] == nil {
		published[protocol][dataset] = map[string]PaperCell{}
	}
	for i, c := range cells {
		if c == "" || c == "-" {
			continue
		}
		m, s, ok := strings.Cut(c, "±")
		mean, err1 := strconv.ParseFloat(strings.TrimSpace(m), 64)
		std, err2 := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if !ok || err1 != nil || err2 != nil {
			panic(fmt.Sprintf("eval: %s %s: bad cell %q", protocol, dataset, c))
		}
		published[protocol][dataset][algos[i]] = PaperCell{Mean: mean / scale, Std: std / scale, Source: source}
	}
}

// Published returns the paper's number for algo on dataset under protocol.
func Published(protocol, dataset, algo string) (PaperCell, bool) {
	c, ok := published[protocol][dataset][algo]
	return c, ok
}

func init() {
	// OPAUC paper (ICML 2013), Table 2, p. 7: OPAUC, OAMseq, OAMgra, online Uni-Exp,
	// batch Uni-Log, batch SVM-OR, batch LS-SVM.
	t2 := []string{"opauc", "oam-seq", "oam-gra", "uniexp", "unilog", "svm-or", "ls-auc"}
	const o2 = "OPAUC Table 2"
	row("opauc", o2, "diabetes", t2, 1, ".8309±.0350", ".8264±.0367", ".8262±.0338", ".8215±.0309", ".8330±.0322", ".8326±.0328", ".8325±.0329")
	row("opauc", o2, "fourclass", t2, 1, ".8310±.0251", ".8306±.0247", ".8295±.0251", ".8281±.0305", ".8288±.0307", ".8305±.0311", ".8309±.0309")
	row("opauc", o2, "german", t2, 1, ".7978±.0347", ".7747±.0411", ".7723±.0358", ".7908±.0367", ".7995±.0344", ".7935±.0348", ".7994±.0343")
	row("opauc", o2, "splice", t2, 1, ".9232±.0099", ".8594±.0194", ".8864±.0166", ".8931±.0213", ".9208±.0107", ".9239±.0089", ".9245±.0092")
	row("opauc", o2, "letter", t2, 1, ".8114±.0065", ".7549±.0344", ".7603±.0346", ".8113±.0074", ".8121±.0061", ".8144±.0064", ".8124±.0065")
	row("opauc", o2, "magic04", t2, 1, ".8383±.0077", ".8238±.0146", ".8259±.0169", ".8354±.0099", ".8378±.0073", ".8426±.0074", ".8379±.0078")
	row("opauc", o2, "a9a", t2, 1, ".9002±.0047", ".8420±.0174", ".8571±.0173", ".9005±.0024", ".9033±.0025", ".9009±.0036", ".8982±.0028")
	row("opauc", o2, "w8a", t2, 1, ".9633±.0035", ".9304±.0074", ".9418±.0070", ".7693±.0986", ".9421±.0062", ".9495±.0082", ".9495±.0092")
	row("opauc", o2+" (mnist)", "fashion-mnist", t2, 1, ".9242±.0021", ".8615±.0087", ".8643±.0112", ".7932±.0245", ".9334±.0021", ".9340±.0020", ".9336±.0025")
	// OPAUC paper, Table 4, p. 8: OPAUCr, OAMseq, OAMgra, online Uni-Exp, OPAUC^f,
	// OPAUC^rp (OPAUC^pca is not implemented).
	t4 := []string{"opaucr", "oam-seq", "oam-gra", "uniexp", "opauc-f", "opauc-rp"}
	row("opauc", "OPAUC Table 4", "sector", t4, 1, ".9292±.0081", ".9163±.0087", ".9043±.0100", ".9215±.0034", ".6228±.0145", ".7286±.0619")

	// UBAUC paper (UAI 2018), Table 2: ol-UBAUC, ba-UBAUC, SOLAM, OPAUC, OAMseq, OAMgra,
	// B-SVM-OR (the UNI-SVM column is not reproduced).
	u2 := []string{"ubauc-online", "ubauc-batch", "solam", "opauc", "oam-seq", "oam-gra", "svm-or"}
	const ub = "UBAUC Table 2"
	row("ubauc", ub, "diabetes", u2, 1, ".8326±.0299", ".8328±.0352", ".8253±.0314", ".8309±.0350", ".8264±.0367", ".8262±.0338", ".8326±.0328")
	row("ubauc", ub, "fourclass", u2, 1, ".8301±.0318", ".8310±.0296", ".8226±.0240", ".8310±.0251", ".8306±.0247", ".8295±.0251", ".8305±.0311")
	row("ubauc", ub, "german", u2, 1, ".7928±.0371", ".7933±.0324", ".7882±.0243", ".7978±.0347", ".7747±.0411", ".7723±.0358", ".7935±.0348")
	row("ubauc", ub, "splice", u2, 1, ".9231±.0224", ".9269±.0094", ".9253±.0097", ".9232±.0099", ".8594±.0194", ".8864±.0166", ".9239±.0089")
	row("ubauc", ub, "a9a", u2, 1, ".9005±.0019", ".9009±.0041", ".9001±.0042", ".9002±.0047", ".8420±.0174", ".8571±.0173", ".9009±.0036")
	row("ubauc", ub, "w8a", u2, 1, ".9673±.0993", ".9695±.0079", ".9114±.0075", ".9633±.0035", ".9304±.0074", ".9418±.0070", ".9495±.0082")
	row("ubauc", ub+" (mnist)", "fashion-mnist", u2, 1, ".9327±.0239", ".9340±.0024", ".9324±.0020", ".9242±.0021", ".8615±.0087", ".8643±.0112", ".9340±.0020")
	row("ubauc", ub, "sector", u2, 1, ".9845±.0033", "-", ".9834±.0023", ".9292±.0081", ".9163±.0087", ".9043±.0100", "-")

	// MBA paper (IEEE TNNLS), Table III, in percent: MBA-ℓ2, MBA-ℓ1, OLR, SOLR
	// (ftrl), OAM (oam-seq), AdaAUC (adaoam).
	m3 := []string{"mba-l2", "mba-l1", "olr", "ftrl", "oam-seq", "adaoam"}
	const mb = "MBA Table III"
	row("mba", mb, "a9a", m3, 100, "89.97±0.01", "89.97±0.02", "90.17±0.03", "89.88±0.03", "89.30±0.22", "89.99±0.04")
	row("mba", mb, "german", m3, 100, "80.34±0.80", "80.41±0.64", "76.39±1.69", "75.07±1.22", "74.59±1.79", "77.83±1.29")
	row("mba", mb+" (mnist)", "fashion-mnist", m3, 100, "95.81±0.02", "95.77±0.02", "95.63±0.27", "95.49±0.12", "94.82±0.23", "95.47±0.09")
	row("mba", mb, "mushrooms", m3, 100, "100.00±0.00", "100.00±0.00", "99.88±0.03", "99.73±0.07", "99.62±0.28", "99.98±0.00")
	row("mba", mb, "phishing", m3, 100, "98.32±0.01", "98.32±0.05", "98.49±0.01", "98.38±0.03", "98.08±0.27", "98.36±0.02")
	row("mba", mb, "svmguide3", m3, 100, "81.16±0.80", "82.05±0.66", "63.80±0.81", "57.65±2.98", "66.97±3.45", "69.14±1.95")

	// MBA paper, Table II (simulation), in percent: MBA-ℓ2, ONLR (olr), AdaAUC
	// (adaoam); the Neyman–Pearson AUC has no std.
	s2 := []string{"np", "mba-l2", "olr", "adaoam"}
	const ms = "MBA Table II"
	row("mba-sim", ms, SimName(1, 0.01), s2, 100, "92.13±0", "87.43±0.69", "86.79±0.99", "80.94±2.77")
	row("mba-sim", ms, SimName(1, 0.10), s2, 100, "92.13±0", "91.44±0.10", "90.54±0.29", "90.25±0.31")
	row("mba-sim", ms, SimName(1, 1.00), s2, 100, "92.13±0", "91.88±0.04", "90.69±0.24", "91.70±0.07")
	row("mba-sim", ms, SimName(2, 0.01), s2, 100, "83.71±0", "80.15±0.68", "77.64±1.41", "69.75±3.24")
	row("mba-sim", ms, SimName(2, 0.10), s2, 100, "83.71±0", "83.15±0.10", "80.19±0.69", "80.12±0.69")
	row("mba-sim", ms, SimName(2, 1.00), s2, 100, "83.71±0", "83.47±0.04", "80.19±0.69", "83.01±0.11")
	row("mba-sim", ms, SimName(3, 0.01), s2, 100, "80.22±0", "76.39±0.47", "73.07±1.06", "66.38±1.95")
	row("mba-sim", ms, SimName(3, 0.10), s2, 100, "80.22±0", "79.52±0.11", "75.94±0.64", "76.72±0.33")
	row("mba-sim", ms, SimName(3, 1.00), s2, 100, "80.22±0", "79.93±0.11", "75.91±0.83", "79.61±0.06")

	// Thesis. regSOLAM, SPAM(-L2) and SPDAM from Table 6.3 (ch. 6's run of all three);
	// SPAM-NET from Table 4.2; OPAUC, OAMseq, OAMgra, B-SVM-OR and B-LS-SVM as the
	// thesis prints them in Table 5.2 (copied there from the OPAUC paper).
	th := []string{"solam", "spam-l2", "spdam"}
	const t63 = "thesis Table 6.3"
	row("thesis", t63, "a9a", th, 1, ".8951±.0046", ".8995±.0041", ".8969±.0048")
	row("thesis", t63, "diabetes", th, 1, ".8178±.0309", ".8269±.0339", ".8287±.0311")
	row("thesis", t63, "fourclass", th, 1, ".8212±.0209", ".8214±.0214", ".8217±.0205")
	row("thesis", t63, "german", th, 1, ".7765±.0360", ".7899±.0313", ".7913±.0302")
	row("thesis", t63, "ionosphere", th, 1, ".8821±.0400", ".9064±.0376", ".9292±.0364")
	row("thesis", t63+" (mnist)", "fashion-mnist", th, 1, ".9267±.0093", ".9467±.0067", ".9356±.0028")
	row("thesis", t63, "sector", th, 1, ".9734±.0036", ".8768±.0126", ".9406±.0062")
	row("thesis", t63, "splice", th, 1, ".9100±.0155", ".9173±.0143", ".9243±.0125")
	row("thesis", t63, "svmguide3", th, 1, ".6488±.0328", ".6073±.0490", ".6226±.0407")
	// Table 4.2 rows 1–12 are Table 3.1's datasets in order: 1 diabetes, 2 fourclass,
	// 3 german, 4 splice, 5 usps, 6 a9a, 7 mnist, 8 acoustic, 9 ijcnn1, 10 covtype,
	// 11 sector, 12 news20.
	net := []string{"spam-net"}
	const t42 = "thesis Table 4.2"
	row("thesis", t42, "diabetes", net, 1, ".8085±.0431")
	row("thesis", t42, "fourclass", net, 1, ".8211±.0205")
	row("thesis", t42, "german", net, 1, ".7937±.0386")
	row("thesis", t42, "splice", net, 1, ".9267±.0090")
	row("thesis", t42, "a9a", net, 1, ".8980±.0047")
	row("thesis", t42+" (mnist)", "fashion-mnist", net, 1, ".9132±.0026")
	row("thesis", t42, "sector", net, 1, ".9077±.0104")
	base := []string{"opauc", "oam-seq", "oam-gra", "svm-or", "ls-auc"}
	const t52 = "thesis Table 5.2 (from OPAUC Table 2/4)"
	row("thesis", t52, "diabetes", base, 1, ".8309±.0350", ".8264±.0367", ".8262±.0338", ".8326±.0328", ".8325±.0329")
	row("thesis", t52, "fourclass", base, 1, ".8310±.0251", ".8306±.0247", ".8295±.0251", ".8305±.0311", ".8309±.0309")
	row("thesis", t52, "german", base, 1, ".7978±.0347", ".7747±.0411", ".7723±.0358", ".7935±.0348", ".7994±.0343")
	row("thesis", t52, "splice", base, 1, ".9232±.0099", ".8594±.0194", ".8864±.0166", ".9239±.0089", ".9245±.0092")
	row("thesis", t52, "a9a", base, 1, ".9002±.0047", ".8420±.0174", ".8571±.0173", ".9009±.0036", ".8982±.0028")
	row("thesis", t52+" (mnist)", "fashion-mnist", base, 1, ".9242±.0021", ".8615±.0087", ".8643±.0112", ".9340±.0020", ".9336±.0025")
	row("thesis", t52, "sector", base, 1, ".9292±.0081", ".9163±.0087", ".9043±.0100", "-", "-")
}
