package testkafka

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// streamsGroupKeys maps the Kafka Streams keys a classic group takes from
// its members to the streams group configs the broker takes them from
// under group.protocol=streams (KIP-1071), where both engines warn that
// they ignore their own.
var streamsGroupKeys = map[string]string{
	"main.consumer.session.timeout.ms":    "streams.session.timeout.ms",
	"main.consumer.heartbeat.interval.ms": "streams.heartbeat.interval.ms",
	"num.standby.replicas":                "streams.num.standby.replicas",
	"max.warmup.replicas":                 "streams.num.warmup.replicas",
	"acceptable.recovery.lag":             "streams.acceptable.recovery.lag",
}

// StreamsGroupConfigs are the streams group configs of an application
// with settings: each key of settings that a streams group takes from its
// configs instead, under its group config's name.
func StreamsGroupConfigs(settings map[string]string) map[string]string {
	out := map[string]string{}
	for client, group := range streamsGroupKeys {
		if v, ok := settings[client]; ok {
			out[group] = v
		}
	}
	return out
}

// SetGroupConfigs sets configs on group, as kafka-configs.sh
// --entity-type groups does; an operator sets a streams group's before its
// first member starts.
func SetGroupConfigs(ctx context.Context, cl *kgo.Client, group string, configs map[string]string) error {
	if len(configs) == 0 {
		return nil
	}
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType = kmsg.ConfigResourceTypeGroupConfig
	res.ResourceName = group
	for _, k := range slices.Sorted(maps.Keys(configs)) {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Value = k, kmsg.StringPtr(configs[k])
		res.Configs = append(res.Configs, c)
	}
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, cl)
	if err == nil && len(resp.Resources) != 1 {
		err = fmt.Errorf("%d resources in the answer", len(resp.Resources))
	}
	if err == nil {
		if err = kerr.ErrorForCode(resp.Resources[0].ErrorCode); err != nil && resp.Resources[0].ErrorMessage != nil {
			err = fmt.Errorf("%w: %s", err, *resp.Resources[0].ErrorMessage)
		}
	}
	if err != nil {
		return fmt.Errorf("testkafka: setting the configs %v of group %s: %w", configs, group, err)
	}
	return nil
}
