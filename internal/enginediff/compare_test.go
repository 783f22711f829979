package enginediff

import "fmt"

func ExampleDisagreement_Split() {
	d := &Disagreement{Step: 0, Outcomes: Outcomes{{Steps: [][]string{{"a", "b"}}}, {Steps: [][]string{{"b", "a"}}}, {Steps: [][]string{{"a", "b"}}}}}
	fmt.Println(d.Split())
	// Output: go+python|js
}
