// Command hello trains OPAUC on the a9a dataset embedded in aucopt, writes the model,
// reads it back and scores a9a's test part with it: the library's round trip in one
// file, to copy into a module of your own (see the README's "Library" section).
package main

import (
	"context"
	"fmt"
	"log"

	_ "github.com/aucopt/aucopt/backends/all" // the compute backends: a program links them
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
)

func main() {
	ctx := context.Background()
	res, err := engine.Train(ctx, engine.TrainConfig{Algo: "opauc", Data: "a9a", Shuffle: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.Model().Write("opauc.json"); err != nil {
		log.Fatal(err)
	}
	m, err := model.Read("opauc.json")
	if err != nil {
		log.Fatal(err)
	}
	p, err := engine.Predict(ctx, m, "a9a", engine.PredictOptions{}) // a dataset name: its test part
	if err != nil {
		log.Fatal(err)
	}
	auc, err := metric.AUC(p.Scores, p.Y)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %s: %d training rows, test AUC %.4f on %d rows\n", res.Algo, res.Data, res.TrainRows, auc, len(p.Scores))
}
