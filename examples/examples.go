// Package examples gathers the example topologies by the names that select
// them, for the programs that run any of them: cmd/sidecar, the integration
// tests and the benchmark. Importing an example package registers no
// topology, handler or class; a program gives the topologies it runs to the
// runtime itself. The one init, protojoin's, registers its Protobuf
// messages with the Protobuf runtime, as the protoc-generated package it
// stands in for would (TestOnlyProtojoinRegistersOnImport).
package examples

import (
	"github.com/stoatflow/stoatflow/examples/appconfigs"
	"github.com/stoatflow/stoatflow/examples/avrocount"
	"github.com/stoatflow/stoatflow/examples/cogroup"
	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/examples/globaljoin"
	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/examples/lrumap"
	"github.com/stoatflow/stoatflow/examples/optimized"
	"github.com/stoatflow/stoatflow/examples/passthrough"
	"github.com/stoatflow/stoatflow/examples/patterns"
	"github.com/stoatflow/stoatflow/examples/processvalues"
	"github.com/stoatflow/stoatflow/examples/productionerrors"
	"github.com/stoatflow/stoatflow/examples/protojoin"
	"github.com/stoatflow/stoatflow/examples/readonlystore"
	"github.com/stoatflow/stoatflow/examples/replacethread"
	"github.com/stoatflow/stoatflow/examples/resets"
	"github.com/stoatflow/stoatflow/examples/routing"
	"github.com/stoatflow/stoatflow/examples/selfjoin"
	"github.com/stoatflow/stoatflow/examples/sessioncount"
	"github.com/stoatflow/stoatflow/examples/slidingcount"
	"github.com/stoatflow/stoatflow/examples/ssjoin"
	"github.com/stoatflow/stoatflow/examples/suppress"
	"github.com/stoatflow/stoatflow/examples/tablegroupby"
	"github.com/stoatflow/stoatflow/examples/tableops"
	"github.com/stoatflow/stoatflow/examples/tabletransform"
	"github.com/stoatflow/stoatflow/examples/tombstones"
	"github.com/stoatflow/stoatflow/examples/ttl"
	"github.com/stoatflow/stoatflow/examples/twostores"
	"github.com/stoatflow/stoatflow/examples/versioned"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/windowstore"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/kstreams"
)

// Topologies returns the example topologies by their stoatflow.topology
// names: a new map each call, for the caller to extend.
func Topologies() map[string]kstreams.TopologyFactory {
	return map[string]kstreams.TopologyFactory{
		joins.StreamTableName:   joins.BuildStreamTable,
		joins.TableTableName:    joins.BuildTableTable,
		joins.DerivedName:       joins.BuildDerived,
		joins.RekeyedName:       joins.BuildRekeyed,
		joins.WindowedName:      joins.BuildWindowed,
		joins.SplitName:         joins.BuildSplit,
		appconfigs.Name:         appconfigs.Build,
		avrocount.Name:          avrocount.Build,
		cogroup.Name:            cogroup.Build,
		optimized.Name:          optimized.Build,
		resets.Name:             resets.Build,
		versioned.Name:          versioned.Build,
		avrocount.WindowedName:  avrocount.BuildWindowed,
		fkjoin.Name:             fkjoin.Build,
		fkjoin.CrashName:        fkjoin.BuildCrash,
		globaljoin.Name:         globaljoin.Build,
		globaljoin.StoreName:    globaljoin.BuildStore,
		globaljoin.PAPIName:     globaljoin.BuildPAPI,
		lrumap.Name:             lrumap.Build,
		passthrough.Name:        passthrough.Build,
		patterns.Name:           patterns.Build,
		processvalues.Name:      processvalues.Build,
		replacethread.Name:      replacethread.Build,
		productionerrors.Name:   productionerrors.Build,
		protojoin.Name:          protojoin.Build,
		readonlystore.Name:      readonlystore.Build,
		routing.Name:            routing.Build,
		selfjoin.Name:           selfjoin.Build,
		sessioncount.Name:       sessioncount.Build,
		slidingcount.Name:       slidingcount.Build,
		slidingcount.FinalName:  slidingcount.BuildFinal,
		ssjoin.Name:             ssjoin.Build,
		ssjoin.CrashName:        ssjoin.BuildCrash,
		suppress.BytesName:      suppress.BuildBytes,
		suppress.FinalName:      suppress.BuildFinal,
		suppress.TimeLimitName:  suppress.BuildTimeLimit,
		tombstones.SessionName:  tombstones.BuildSession,
		tombstones.TableName:    tombstones.BuildTable,
		tableops.Name:           tableops.Build,
		tableops.WindowedName:   tableops.BuildWindowed,
		tablegroupby.Name:       tablegroupby.Build,
		tabletransform.Name:     tabletransform.Build,
		ttl.Name:                ttl.Build,
		twostores.Name:          twostores.Build,
		windowedcount.Name:      windowedcount.Build,
		windowedcount.FinalName: windowedcount.BuildFinal,
		windowstore.Name:        windowstore.Build,
		windowstore.CachedName:  windowstore.BuildCached,
		wordcount.Name:          wordcount.Build,
	}
}

// TestOnly returns the names of the topologies of Topologies that exist
// for the crash tests, not as examples: a program lists the others
// (sidecar.WithUnlistedTopologies).
func TestOnly() []string {
	return []string{fkjoin.CrashName, ssjoin.CrashName}
}

// ProductionHandlers returns the production exception handlers the
// examples' streams.properties files name (productionerrors'), for the
// runtime (streams.WithProductionHandlers) or the sidecar
// (sidecar.WithProductionHandlers).
func ProductionHandlers() kstreams.ProductionHandlers {
	return productionerrors.Handlers()
}
