// Package testcluster runs a three-node Apache Kafka 4.4 cluster on
// 127.0.0.1 for tests of the faults a replicated cluster has: a broker
// killed, frozen or restarted, and one broker's client connections cut or
// stalled.
//
// Each node is broker and controller in one JVM, a voter of a three-voter
// KRaft quorum, with its own ports and data directory, started from the
// same Maven Central jars as integration/kafka.sh. Internal topics, the
// offsets topic and the transaction state log have three replicas and
// min.insync.replicas=2; the other settings are kafka.sh's test-friendly
// ones.
//
// Every broker advertises its client listener at a loopback port that a
// proxy in the test process owns and forwards to the broker's real
// listener, so that a test can cut, stall and resume the connections
// between clients and one broker while the brokers still replicate among
// themselves. A second client listener (DirectBootstrap) is never proxied:
// a test's own producers, readers and lookups use it to watch an
// application through a fault that the application alone suffers.
//
// The JVMs are children of the process that started them and die with it,
// however it ends.
package testcluster

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/reporoot"
)

// Nodes is the cluster's size: node ids run from 1 to Nodes.
const Nodes = 3

// KafkaVersion is the Apache Kafka release the nodes run.
const KafkaVersion = "4.4.0"

// Options configure Start. The zero value is a cluster in a fresh
// temporary directory, removed by Close.
type Options struct {
	// Dir holds one directory per node (node-1, ...: configuration, data,
	// server.log). It must be empty or absent; Start creates it, and Close
	// leaves it. Default: a new temporary directory that Close removes.
	Dir string
	// Lib is the folder of the Kafka jars. Default: what
	// `integration/kafka.sh jars` resolves, <repo>/.cache/kafka-4.4.0/lib
	// (or under $STOATFLOW_KAFKA_HOME).
	Lib string
	// Heap is each JVM's maximum heap (-Xmx). Default:
	// $STOATFLOW_CLUSTER_HEAP, else 512m.
	Heap string
	// ReadyTimeout bounds the wait for every node to start. Default:
	// $STOATFLOW_KAFKA_READY_TIMEOUT seconds, else 180 s.
	ReadyTimeout time.Duration
}

// Cluster is a running three-node cluster. Its methods are safe for
// concurrent use.
type Cluster struct {
	dir    string
	ownDir bool // a temporary directory Close removes
	nodes  []*node
	cl     *kgo.Client // on the direct listeners
	admin  *kadm.Client

	closeOnce sync.Once
	closeErr  error
	keep      bool // Close leaves the directory
}

// Start starts the cluster and returns once every node has started, every
// broker is registered and the proxies forward to them. On failure it
// stops what it started; the error names the node and its log file, and
// the directory is left for reading it.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	lib, err := resolveLib(ctx, opts.Lib)
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("java"); err != nil {
		return nil, fmt.Errorf("testcluster: java not found: install a JDK 17 (apt-get install openjdk-17-jdk-headless): %w", err)
	}
	heap := opts.Heap
	if heap == "" {
		heap = envOr("STOATFLOW_CLUSTER_HEAP", "512m")
	}
	timeout := opts.ReadyTimeout
	if timeout == 0 {
		timeout = 180 * time.Second
		if v := os.Getenv("STOATFLOW_KAFKA_READY_TIMEOUT"); v != "" {
			var s int
			if _, err := fmt.Sscan(v, &s); err != nil || s <= 0 {
				return nil, fmt.Errorf("testcluster: STOATFLOW_KAFKA_READY_TIMEOUT=%q: want a positive number of seconds", v)
			}
			timeout = time.Duration(s) * time.Second
		}
	}

	c := &Cluster{dir: opts.Dir}
	if c.dir == "" {
		if c.dir, err = os.MkdirTemp("", "stoatflow-cluster-"); err != nil {
			return nil, fmt.Errorf("testcluster: %w", err)
		}
		c.ownDir = true
	} else {
		if entries, err := os.ReadDir(c.dir); err == nil && len(entries) > 0 {
			return nil, fmt.Errorf("testcluster: %s is not empty: a cluster starts in an empty directory", c.dir)
		}
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			return nil, fmt.Errorf("testcluster: %w", err)
		}
	}
	if err := c.start(ctx, lib, heap, timeout); err != nil {
		c.keep = true
		_ = c.Close()
		return nil, fmt.Errorf("%w\n(the nodes' directories are in %s)", err, c.dir)
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context, lib, heap string, timeout time.Duration) error {
	ports, err := freePorts(4 * Nodes)
	if err != nil {
		return err
	}
	var voters []string
	for i := range Nodes {
		id := int32(i + 1)
		p, err := listenProxy(0)
		if err != nil {
			return err
		}
		n := &node{id: id, dir: filepath.Join(c.dir, fmt.Sprintf("node-%d", id)), proxy: p,
			clientPort: ports[4*i], directPort: ports[4*i+1], internalPort: ports[4*i+2], controllerPort: ports[4*i+3]}
		n.java = []string{"java", "-Xms128m", "-Xmx" + heap, "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
			"-Dlog4j2.configurationFile=" + filepath.Join(n.dir, "log4j2.properties"), "-cp", filepath.Join(lib, "*")}
		c.nodes = append(c.nodes, n)
		voters = append(voters, fmt.Sprintf("%d@127.0.0.1:%d", id, n.controllerPort))
	}
	clusterID, err := newClusterID()
	if err != nil {
		return err
	}
	for _, n := range c.nodes {
		if err := n.writeConfig(strings.Join(voters, ",")); err != nil {
			return err
		}
	}
	if err := c.eachNode(func(n *node) error { return n.format(ctx, clusterID) }); err != nil {
		return err
	}
	for _, n := range c.nodes {
		if err := n.start(); err != nil {
			return err
		}
		n.proxy.serve(fmt.Sprintf("127.0.0.1:%d", n.clientPort))
	}
	readyCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.eachNode(func(n *node) error { return n.waitStarted(readyCtx, 0) }); err != nil {
		return err
	}
	c.cl, err = kgo.NewClient(kgo.SeedBrokers(strings.Split(c.DirectBootstrap(), ",")...),
		kgo.MetadataMinAge(250*time.Millisecond), kgo.DialTimeout(3*time.Second))
	if err != nil {
		return fmt.Errorf("testcluster: admin client: %w", err)
	}
	c.admin = kadm.NewClient(c.cl)
	if err := c.waitRegistered(readyCtx, c.NodeIDs()...); err != nil {
		return err
	}
	return c.checkProxies(readyCtx)
}

// checkProxies asks for metadata through the proxies and checks that
// every broker is advertised at its proxy.
func (c *Cluster) checkProxies(ctx context.Context) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(c.Bootstrap(), ",")...))
	if err != nil {
		return fmt.Errorf("testcluster: client through the proxies: %w", err)
	}
	defer cl.Close()
	for {
		bs, err := kadm.NewClient(cl).ListBrokers(ctx)
		if err == nil {
			got := map[int32]string{}
			for _, b := range bs {
				got[b.NodeID] = fmt.Sprintf("%s:%d", b.Host, b.Port)
			}
			bad := ""
			for _, n := range c.nodes {
				if got[n.id] != n.proxy.addr() {
					bad += fmt.Sprintf(" node %d advertised at %q, want its proxy %s;", n.id, got[n.id], n.proxy.addr())
				}
			}
			if bad == "" {
				return nil
			}
			err = errors.New(strings.TrimSuffix(bad, ";"))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testcluster: metadata through the proxies (%s): %v (%w)", c.Bootstrap(), err, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitRegistered waits until the brokers' metadata lists every node of
// ids as a live broker.
func (c *Cluster) waitRegistered(ctx context.Context, ids ...int32) error {
	for {
		bs, err := c.admin.ListBrokers(ctx)
		missing := slices.Clone(ids)
		if err == nil {
			for _, b := range bs {
				missing = slices.DeleteFunc(missing, func(id int32) bool { return id == b.NodeID })
			}
			if len(missing) == 0 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			msg := fmt.Sprintf("testcluster: nodes %v not registered as brokers (%v, last error %v)", missing, ctx.Err(), err)
			for _, id := range missing {
				if n, e := c.node(id); e == nil {
					msg += fmt.Sprintf("\nlast lines of %s:\n%s", n.logFile(), tailFile(n.logFile(), 15))
				}
			}
			return errors.New(msg)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// eachNode runs f for every node side by side and returns the first
// error in node order.
func (c *Cluster) eachNode(f func(*node) error) error {
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Go(func() { errs[i] = f(n) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Bootstrap is the clients' bootstrap address: every broker's proxy,
// comma-separated. Connections made through it are the ones Cut and Stall
// act on.
func (c *Cluster) Bootstrap() string {
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = n.proxy.addr()
	}
	return strings.Join(addrs, ",")
}

// DirectBootstrap is the bootstrap address of the brokers' unproxied
// client listener: clients on it are never cut or stalled, only a node's
// own death or freeze reaches them.
func (c *Cluster) DirectBootstrap() string {
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = fmt.Sprintf("127.0.0.1:%d", n.directPort)
	}
	return strings.Join(addrs, ",")
}

// NodeIDs returns the node ids, 1 to Nodes.
func (c *Cluster) NodeIDs() []int32 {
	ids := make([]int32, len(c.nodes))
	for i, n := range c.nodes {
		ids[i] = n.id
	}
	return ids
}

// Dir is the folder of the nodes' directories.
func (c *Cluster) Dir() string { return c.dir }

// LogFile is node id's server.log.
func (c *Cluster) LogFile(id int32) string {
	n, err := c.node(id)
	if err != nil {
		return ""
	}
	return n.logFile()
}

func (c *Cluster) node(id int32) (*node, error) {
	for _, n := range c.nodes {
		if n.id == id {
			return n, nil
		}
	}
	return nil, fmt.Errorf("testcluster: no node %d (nodes are 1 to %d)", id, len(c.nodes))
}

// Kill ends node id's JVM with SIGKILL, as a crashed host, and waits for
// it to exit. Restart brings it back.
func (c *Cluster) Kill(id int32) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	return n.kill()
}

// Stop freezes node id's JVM with SIGSTOP: its connections stay open and
// nothing answers, as on a host that hangs. Continue thaws it.
func (c *Cluster) Stop(id int32) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	return n.signal(syscall.SIGSTOP)
}

// Continue thaws node id's JVM with SIGCONT after Stop.
func (c *Cluster) Continue(id int32) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	return n.signal(syscall.SIGCONT)
}

// Restart stops node id with SIGTERM if it runs (a controlled shutdown;
// SIGKILL after a minute), starts it again on its data and returns once it
// has started and is registered as a broker.
func (c *Cluster) Restart(ctx context.Context, id int32) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	stopCtx, cancel := context.WithTimeout(ctx, time.Minute)
	err = n.shutdown(stopCtx)
	cancel()
	if err != nil {
		return err
	}
	return c.startNode(ctx, n)
}

func (c *Cluster) startNode(ctx context.Context, n *node) error {
	from := n.logSize()
	if err := n.start(); err != nil {
		return err
	}
	if err := n.waitStarted(ctx, from); err != nil {
		return err
	}
	return c.waitRegistered(ctx, n.id)
}

// Cut resets every client connection to node id and every new one, until
// Resume. The broker itself runs on and replicates: only the clients on
// Bootstrap lose it.
func (c *Cluster) Cut(id int32) error { return c.setMode(id, cut) }

// Stall stops moving bytes on node id's client connections, both ways,
// until Resume: connections stay open and new ones are accepted, and
// nothing arrives, as on a path that drops every packet.
func (c *Cluster) Stall(id int32) error { return c.setMode(id, stalled) }

// Resume ends a Cut or a Stall of node id: bytes held by a stall move
// on, new connections go through.
func (c *Cluster) Resume(id int32) error { return c.setMode(id, forwarding) }

func (c *Cluster) setMode(id int32, m proxyMode) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	n.proxy.setMode(m)
	return nil
}

// Connections counts the client connections node id's proxy holds.
func (c *Cluster) Connections(id int32) int {
	n, err := c.node(id)
	if err != nil {
		return 0
	}
	return n.proxy.connections()
}

// LeaderOf returns the node leading topic's partition, as the brokers'
// metadata has it.
func (c *Cluster) LeaderOf(ctx context.Context, topic string, partition int32) (int32, error) {
	md, err := c.admin.Metadata(ctx, topic)
	if err != nil {
		return -1, fmt.Errorf("testcluster: metadata of %s: %w", topic, err)
	}
	td, ok := md.Topics[topic]
	if !ok || td.Err != nil {
		return -1, fmt.Errorf("testcluster: topic %s: %v", topic, td.Err)
	}
	pd, ok := td.Partitions[partition]
	switch {
	case !ok:
		return -1, fmt.Errorf("testcluster: topic %s has no partition %d", topic, partition)
	case pd.Err != nil:
		return -1, fmt.Errorf("testcluster: %s-%d: %w", topic, partition, pd.Err)
	case pd.Leader < 0:
		return -1, fmt.Errorf("testcluster: %s-%d has no leader", topic, partition)
	}
	return pd.Leader, nil
}

// GroupCoordinatorOf returns the node coordinating group. While the
// coordinator is not available (the offsets topic being created or
// moving) it asks again until ctx ends.
func (c *Cluster) GroupCoordinatorOf(ctx context.Context, group string) (int32, error) {
	id, err := findCoordinator(ctx, func() kadm.FindCoordinatorResponse { return c.admin.FindGroupCoordinators(ctx, group)[group] })
	if err != nil {
		return -1, fmt.Errorf("testcluster: coordinator of group %s: %w", group, err)
	}
	return id, nil
}

// TxnCoordinatorOf returns the node coordinating transactionalID's
// transactions, asking again as GroupCoordinatorOf does.
func (c *Cluster) TxnCoordinatorOf(ctx context.Context, transactionalID string) (int32, error) {
	id, err := findCoordinator(ctx, func() kadm.FindCoordinatorResponse {
		return c.admin.FindTxnCoordinators(ctx, transactionalID)[transactionalID]
	})
	if err != nil {
		return -1, fmt.Errorf("testcluster: coordinator of transactional id %s: %w", transactionalID, err)
	}
	return id, nil
}

func findCoordinator(ctx context.Context, find func() kadm.FindCoordinatorResponse) (int32, error) {
	for {
		r := find()
		if r.Err == nil {
			return r.NodeID, nil
		}
		if !kerr.IsRetriable(r.Err) {
			return -1, r.Err
		}
		select {
		case <-ctx.Done():
			return -1, fmt.Errorf("%w (%w)", r.Err, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// QuorumLeader returns the active controller: the leader of the KRaft
// quorum.
func (c *Cluster) QuorumLeader(ctx context.Context) (int32, error) {
	req := kmsg.NewPtrDescribeQuorumRequest()
	t := kmsg.NewDescribeQuorumRequestTopic()
	t.Topic = "__cluster_metadata"
	p := kmsg.NewDescribeQuorumRequestTopicPartition()
	t.Partitions = append(t.Partitions, p)
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, c.cl)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err == nil && (len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1) {
		err = errors.New("no partition in the answer")
	}
	if err == nil {
		pr := resp.Topics[0].Partitions[0]
		if err = kerr.ErrorForCode(pr.ErrorCode); err == nil {
			return pr.LeaderID, nil
		}
	}
	return -1, fmt.Errorf("testcluster: describing the metadata quorum: %w", err)
}

// CreateTopics creates topics with partitions partitions and three
// replicas each, partition p on nodes p%3+1, (p+1)%3+1, (p+2)%3+1 in that
// order: its leader is node p%3+1 until a fault moves it, so topics of the
// same size share their leaders. It waits until every partition has its
// leader. An existing topic is an error.
func (c *Cluster) CreateTopics(ctx context.Context, partitions int, topics ...string) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis = 30_000
	for _, name := range topics {
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic = name
		t.NumPartitions, t.ReplicationFactor = -1, -1
		for p := range partitions {
			a := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
			a.Partition = int32(p)
			for r := range Nodes {
				a.Replicas = append(a.Replicas, c.nodes[(p+r)%Nodes].id)
			}
			t.ReplicaAssignment = append(t.ReplicaAssignment, a)
		}
		req.Topics = append(req.Topics, t)
	}
	resp, err := req.RequestWith(ctx, c.cl)
	if err != nil {
		return fmt.Errorf("testcluster: creating topics %v: %w", topics, err)
	}
	for _, t := range resp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			msg := ""
			if t.ErrorMessage != nil {
				msg = ": " + *t.ErrorMessage
			}
			return fmt.Errorf("testcluster: creating topic %s: %w%s", t.Topic, err, msg)
		}
	}
	return c.WaitInSync(ctx, topics...)
}

// WaitInSync waits until every partition of topics (no topic: of every
// topic, the internal ones included) has a leader and all its replicas in
// sync: after a restart, the moment the cluster can lose a node again
// without losing a partition.
func (c *Cluster) WaitInSync(ctx context.Context, topics ...string) error {
	for {
		lag, err := c.outOfSync(ctx, topics)
		if err == nil && lag == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = errors.New(lag)
			}
			return fmt.Errorf("testcluster: partitions not in sync: %v (%w)", err, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// outOfSync names the first partition without a leader or with a replica
// out of sync, "" when there is none.
func (c *Cluster) outOfSync(ctx context.Context, topics []string) (string, error) {
	if len(topics) == 0 {
		listed, err := c.admin.ListTopicsWithInternal(ctx)
		if err != nil {
			return "", err
		}
		topics = listed.Names()
		if len(topics) == 0 {
			return "", nil
		}
	}
	md, err := c.admin.Metadata(ctx, topics...)
	if err != nil {
		return "", err
	}
	for _, name := range topics {
		td, ok := md.Topics[name]
		if !ok || td.Err != nil {
			return fmt.Sprintf("topic %s: not in the metadata (%v)", name, td.Err), nil
		}
		for _, pd := range td.Partitions.Sorted() {
			if pd.Err != nil || pd.Leader < 0 || len(pd.ISR) < len(pd.Replicas) {
				return fmt.Sprintf("%s-%d: leader %d, replicas %v, in sync %v (%v)", name, pd.Partition, pd.Leader, pd.Replicas, pd.ISR, pd.Err), nil
			}
		}
	}
	return "", nil
}

// Heal undoes every fault: it resumes every proxy, thaws every frozen
// node, starts every node that is down, waits until every broker is
// registered and every partition in sync, and gives every partition back
// to its preferred leader (the first of its replicas), so that the next
// test finds the layout CreateTopics made.
func (c *Cluster) Heal(ctx context.Context) error {
	for _, n := range c.nodes {
		n.proxy.setMode(forwarding)
		if n.frozen() {
			if err := n.signal(syscall.SIGCONT); err != nil {
				return err
			}
		}
	}
	if err := c.eachNode(func(n *node) error {
		if n.alive() {
			return nil
		}
		return c.startNode(ctx, n)
	}); err != nil {
		return err
	}
	if err := c.waitRegistered(ctx, c.NodeIDs()...); err != nil {
		return err
	}
	if err := c.WaitInSync(ctx); err != nil {
		return err
	}
	return c.electPreferred(ctx)
}

// electPreferred runs a preferred-leader election of every partition and
// waits until each is led by the first of its replicas.
func (c *Cluster) electPreferred(ctx context.Context) error {
	for {
		var lastErr error
		if _, err := c.admin.ElectLeaders(ctx, kadm.ElectPreferredReplica, nil); err != nil {
			lastErr = err
		}
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			off, err := c.offPreferred(ctx)
			if err == nil && off == "" {
				return nil
			}
			if err != nil {
				lastErr = err
			} else {
				lastErr = errors.New(off)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("testcluster: partitions not back with their preferred leaders: %v (%w)", lastErr, ctx.Err())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}

// offPreferred names the first partition not led by its preferred
// replica, "" when there is none.
func (c *Cluster) offPreferred(ctx context.Context) (string, error) {
	listed, err := c.admin.ListTopicsWithInternal(ctx)
	if err != nil {
		return "", err
	}
	for _, td := range listed.Sorted() {
		for _, pd := range td.Partitions.Sorted() {
			if len(pd.Replicas) > 0 && pd.Leader != pd.Replicas[0] {
				return fmt.Sprintf("%s-%d led by %d, preferred %d", td.Topic, pd.Partition, pd.Leader, pd.Replicas[0]), nil
			}
		}
	}
	return "", nil
}

// Close kills every node with SIGKILL, closes the proxies and, for a
// cluster in its own temporary directory, removes it. Safe to call twice.
func (c *Cluster) Close() error {
	c.closeOnce.Do(func() {
		for _, n := range c.nodes {
			if n.alive() {
				_ = n.kill()
			}
		}
		c.finish()
	})
	return c.closeErr
}

// Shutdown stops every node with SIGTERM side by side, kills those still
// running at ctx's end, and closes the cluster as Close does.
func (c *Cluster) Shutdown(ctx context.Context) error {
	c.closeOnce.Do(func() {
		c.closeErr = c.eachNode(func(n *node) error { return n.shutdown(ctx) })
		c.finish()
	})
	return c.closeErr
}

// KeepDir makes Close leave the cluster's directory, for reading its logs
// after a failure.
func (c *Cluster) KeepDir() { c.keep = true }

func (c *Cluster) finish() {
	if c.cl != nil {
		c.cl.Close()
	}
	for _, n := range c.nodes {
		n.proxy.close()
	}
	if c.ownDir && !c.keep {
		if err := os.RemoveAll(c.dir); err != nil && c.closeErr == nil {
			c.closeErr = fmt.Errorf("testcluster: removing %s: %w", c.dir, err)
		}
	}
}

// resolveLib returns the folder of the Kafka jars: lib if set, else the
// one integration/kafka.sh resolves (running `kafka.sh jars` when the
// jars are not there yet).
func resolveLib(ctx context.Context, lib string) (string, error) {
	if lib != "" {
		return lib, nil
	}
	root, err := reporoot.Find()
	if err != nil {
		return "", fmt.Errorf("testcluster: %w: set Options.Lib", err)
	}
	home := envOr("STOATFLOW_KAFKA_HOME", filepath.Join(root, ".cache"))
	lib = filepath.Join(home, "kafka-"+KafkaVersion, "lib")
	if _, err := os.Stat(filepath.Join(lib, ".complete")); err == nil {
		return lib, nil
	}
	script := filepath.Join(root, "integration", "kafka.sh")
	out, err := exec.CommandContext(ctx, script, "jars").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("testcluster: resolving the Kafka %s jars (%s jars): %w\n%s", KafkaVersion, script, err, tailLines(string(out), 20))
	}
	return lib, nil
}

// freePorts returns n distinct loopback ports that were free a moment
// ago: all are held open together, then released. They are drawn below the
// kernel's ephemeral range (ip_local_port_range), where the kernel never
// picks the local port of an outgoing connection: a node binds its
// listeners well after this check (a broker's only once the controller
// quorum has formed, while the nodes already connect to each other), and
// binds them again at each restart.
func freePorts(n int) ([]int, error) {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		var lo, hi int
		if _, err := fmt.Sscan(string(b), &lo, &hi); err == nil && lo > 12000 {
			low = lo
		}
	}
	const floor = 10000 // above the well-known services and common fixed ports
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries > 100*n {
			return nil, fmt.Errorf("testcluster: no %d free ports between %d and %d", n, floor, low)
		}
		port := floor + mrand.IntN(low-floor)
		if slices.Contains(ports, port) {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		lns = append(lns, ln)
		ports = append(ports, port)
	}
	return ports, nil
}

// newClusterID is a random cluster id as Kafka's Uuid prints it: 16 bytes
// in unpadded URL-safe base64, never starting with '-' (Kafka's
// Uuid.randomUuid draws again then too, so that the id reads as no option
// on a command line).
func newClusterID() (string, error) {
	for {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("testcluster: cluster id: %w", err)
		}
		if id := base64.RawURLEncoding.EncodeToString(b[:]); id[0] != '-' {
			return id, nil
		}
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
