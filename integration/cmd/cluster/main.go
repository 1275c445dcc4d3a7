// Command cluster runs the three-node Kafka 4.4 cluster of
// internal/testcluster in the foreground, for integration/cluster.sh:
//
//	cluster -dir DIR           start an empty cluster in DIR, serve until SIGTERM
//	cluster -dir DIR -do CMD   send CMD to the cluster serving DIR
//
// Once ready it writes DIR/cluster.env (BOOTSTRAP, DIRECT_BOOTSTRAP, PID,
// and each node's LOG_<id>) and prints the bootstrap address. It takes
// faults on the Unix socket DIR/control.sock, one command a line: kill N,
// stop N (SIGSTOP), continue N, restart N, cut N, stall N, resume N,
// heal, leader TOPIC PARTITION, group-coordinator GROUP,
// txn-coordinator TRANSACTIONAL_ID, quorum-leader. The proxies live in
// this process, so the cluster lives as long as it does.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stoatflow/stoatflow/internal/testcluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cluster", flag.ContinueOnError)
	dir := fs.String("dir", "", "the cluster's directory (required); emptied at start")
	do := fs.String("do", "", "send this command to the cluster serving -dir and print its answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-dir is required")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if *do != "" {
		return send(abs, *do, stdout)
	}
	return serve(ctx, abs, stdout)
}

func serve(ctx context.Context, dir string, stdout io.Writer) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	started, cancel := context.WithTimeout(ctx, 5*time.Minute)
	c, err := testcluster.Start(started, testcluster.Options{Dir: dir})
	cancel()
	if err != nil {
		return err
	}
	shutdown := func() error {
		sctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		return c.Shutdown(sctx)
	}
	sock := filepath.Join(dir, "control.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return errors.Join(fmt.Errorf("control socket %s: %w", sock, err), shutdown())
	}
	var conns sync.WaitGroup
	conns.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() { answer(ctx, c, conn) })
		}
	})
	env := fmt.Sprintf("BOOTSTRAP=%s\nDIRECT_BOOTSTRAP=%s\nPID=%d\n", c.Bootstrap(), c.DirectBootstrap(), os.Getpid())
	for _, id := range c.NodeIDs() {
		env += fmt.Sprintf("LOG_%d=%s\n", id, c.LogFile(id))
	}
	if err := os.WriteFile(filepath.Join(dir, "cluster.env"), []byte(env), 0o644); err != nil {
		ln.Close()
		conns.Wait()
		return errors.Join(err, shutdown())
	}
	fmt.Fprintln(stdout, c.Bootstrap())
	<-ctx.Done()
	ln.Close()
	conns.Wait()
	os.Remove(filepath.Join(dir, "cluster.env"))
	return shutdown()
}

// answer runs one command line and writes its answer: "ok ..." or
// "error ...".
func answer(ctx context.Context, c *testcluster.Cluster, conn net.Conn) {
	defer conn.Close()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil && line == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	out, err := command(ctx, c, strings.Fields(line))
	if err != nil {
		fmt.Fprintf(conn, "error %v\n", err)
		return
	}
	fmt.Fprintf(conn, "ok %s\n", out)
}

func command(ctx context.Context, c *testcluster.Cluster, f []string) (string, error) {
	if len(f) == 0 {
		return "", errors.New("empty command")
	}
	node := func() (int32, error) {
		if len(f) != 2 {
			return 0, fmt.Errorf("%s takes a node id", f[0])
		}
		id, err := strconv.ParseInt(f[1], 10, 32)
		return int32(id), err
	}
	onNode := map[string]func(int32) error{
		"kill": c.Kill, "stop": c.Stop, "continue": c.Continue, "cut": c.Cut, "stall": c.Stall, "resume": c.Resume,
		"restart": func(id int32) error { return c.Restart(ctx, id) },
	}
	if do, ok := onNode[f[0]]; ok {
		id, err := node()
		if err != nil {
			return "", err
		}
		return "", do(id)
	}
	var id int32
	var err error
	switch {
	case f[0] == "heal" && len(f) == 1:
		return "", c.Heal(ctx)
	case f[0] == "quorum-leader" && len(f) == 1:
		id, err = c.QuorumLeader(ctx)
	case f[0] == "leader" && len(f) == 3:
		var p int64
		if p, err = strconv.ParseInt(f[2], 10, 32); err == nil {
			id, err = c.LeaderOf(ctx, f[1], int32(p))
		}
	case f[0] == "group-coordinator" && len(f) == 2:
		id, err = c.GroupCoordinatorOf(ctx, f[1])
	case f[0] == "txn-coordinator" && len(f) == 2:
		id, err = c.TxnCoordinatorOf(ctx, f[1])
	default:
		return "", fmt.Errorf("unknown command %q: want kill|stop|continue|restart|cut|stall|resume N, heal, "+
			"leader TOPIC PARTITION, group-coordinator GROUP, txn-coordinator ID or quorum-leader", strings.Join(f, " "))
	}
	return strconv.Itoa(int(id)), err
}

// send writes cmd to the cluster serving dir and prints its answer.
func send(dir, cmd string, stdout io.Writer) error {
	sock := filepath.Join(dir, "control.sock")
	conn, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		return fmt.Errorf("no cluster serving %s (%w): start one with integration/cluster.sh up", dir, err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintln(conn, cmd); err != nil {
		return err
	}
	reply, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return fmt.Errorf("no answer to %q: %w", cmd, err)
	}
	reply = strings.TrimSpace(reply)
	if msg, ok := strings.CutPrefix(reply, "error "); ok {
		return errors.New(msg)
	}
	if out := strings.TrimSpace(strings.TrimPrefix(reply, "ok")); out != "" {
		fmt.Fprintln(stdout, out)
	}
	return nil
}
