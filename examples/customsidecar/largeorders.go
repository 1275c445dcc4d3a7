package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
)

// LargeOrdersName is the stoatflow.topology value that selects LargeOrders.
const LargeOrdersName = "large-orders"

// LargeOrders builds the large-orders topology: it reads orders whose value
// is "<customer>,<amount in cents>", keeps those of at least min-cents,
// and writes each one unchanged under its customer as the key, so that a
// later per-customer aggregation finds a customer's orders in one
// partition. A value that is not an order (a tombstone included) is
// dropped.
//
// Arguments (--arg name=value): input (default orders), output (default
// large-orders), min-cents (default 10000). Keys and values use
// default.key.serde and default.value.serde (Strings).
func LargeOrders(args map[string]string) (*kstreams.Topology, error) {
	input, output := arg(args, "input", "orders"), arg(args, "output", "large-orders")
	minCents := int64(10000)
	if v, ok := args["min-cents"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("large-orders: min-cents=%q: want a whole number of cents, 0 or more", v)
		}
		minCents = n
	}
	b := kstreams.NewStreamsBuilder()
	large := kstreams.Stream[string, string](b, []string{input}).
		Filter(func(_, v string) bool {
			o, ok := ParseOrder(v)
			return ok && o.Cents >= minCents
		})
	byCustomer := kstreams.SelectKey(large, func(_, v string) string {
		o, _ := ParseOrder(v) // the filter kept only orders
		return o.Customer
	})
	byCustomer.To(output)
	return b.Build()
}

// Order is one order record's value.
type Order struct {
	Customer string
	Cents    int64
}

// ParseOrder reads "<customer>,<amount in cents>": a non-empty customer
// without a comma, and a whole, non-negative amount. ok is false for
// anything else.
func ParseOrder(v string) (o Order, ok bool) {
	customer, amount, found := strings.Cut(v, ",")
	if !found || customer == "" {
		return Order{}, false
	}
	cents, err := strconv.ParseInt(amount, 10, 64)
	if err != nil || cents < 0 {
		return Order{}, false
	}
	return Order{Customer: customer, Cents: cents}, true
}

func arg(args map[string]string, name, def string) string {
	if v := args[name]; v != "" {
		return v
	}
	return def
}
