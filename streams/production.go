package streams

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/txn"
)

// sendFailed answers the records of an epoch that were not written, before
// the epoch commits (txn.Committer.OnFailed), as Kafka Streams' record
// collector answers a failed send: errors no handler can skip stop the
// thread or migrate its tasks; the others go to the production exception
// handler, whose RESUME drops the record and lets the epoch commit without
// it (under exactly_once_v2 too: the record never reached the transaction,
// or the broker refused its batch), RETRY of a retriable error aborts the
// epoch to process it again, and FAIL (or RETRY of any other error) stops
// the thread. The first record that is not resumed decides.
func (t *streamThread) sendFailed(_ context.Context, failed []txn.Failed) error {
	for _, f := range failed {
		a, _ := f.Origin.(*activeTask)
		id, node := kstreams.TaskID{Subtopology: -1, Partition: -1}, ""
		if a != nil {
			id = a.id
			if a.task != nil {
				node = a.task.SinkFor(f.Topic)
			}
		}
		where := fmt.Sprintf("Error encountered sending record to topic %s for task %s due to: %v", f.Topic, id, f.Err)
		switch {
		case errors.Is(f.Err, kgo.ErrClientClosed), errors.Is(f.Err, context.Canceled), errors.Is(f.Err, context.DeadlineExceeded):
			return &txn.Error{Op: "send", Err: f.Err}
		case sendFenced(f.Err):
			return &txn.Error{Op: "send", Class: txn.ErrFenced,
				Err: fmt.Errorf("%s; written offsets would not be recorded and no more records would be sent since the producer is fenced, "+
					"indicating the task may be migrated out: %w", where, f.Err)}
		case sendFatal(f.Err):
			return fmt.Errorf("streams: %s; written offsets would not be recorded and no more records would be sent since this is a fatal error: %w", where, f.Err)
		}
		headers := make([]kstreams.Header, len(f.Headers))
		for i, h := range f.Headers {
			headers[i] = kstreams.Header{Key: h.Key, Value: h.Value}
		}
		ectx := kstreams.ErrorHandlerContext{Partition: -1, Offset: -1, Headers: headers, ProcessorNodeID: node, TaskID: id, Timestamp: f.Timestamp}
		rec := kstreams.ProducerRecord{Topic: f.Topic, Partition: f.Partition, PartitionKey: f.Key, Key: f.Key, Value: f.Value,
			Timestamp: f.Timestamp, Headers: headers}
		err := &kstreams.RetriableError{Err: f.Err, CanRetry: kerr.IsRetriable(f.Err)}
		resp, herr := kstreams.CallProductionHandler(node, func() kstreams.ProductionResponse {
			return t.production.HandleError(ectx, rec, err)
		})
		if herr != nil {
			t.log.Error("production error callback failed after production error", "task", id.String(), "topic", f.Topic,
				"partition", f.Partition, "err", f.Err)
			return herr
		}
		out := collector{t: t}
		if a != nil {
			out = a.out
		}
		for _, dlq := range resp.DeadLetterQueueRecords {
			if dlq.PartitionKey == nil {
				dlq.PartitionKey = dlq.Key
			}
			if serr := out.Send(dlq); serr != nil {
				return fmt.Errorf("streams: sending the production exception handler's dead-letter record to %s: %w", dlq.Topic, serr)
			}
		}
		switch {
		case resp.Result == kstreams.ProductionRetry && err.CanRetry:
			return &txn.Error{Op: "send", Class: txn.ErrAbortable, Err: fmt.Errorf("%s; the production exception handler asked to RETRY: "+
				"the epoch aborts and its records are processed again", where)}
		case resp.Result == kstreams.ProductionRetry:
			t.log.Warn("ProductionExceptionHandler returned RETRY for a non-retriable exception; treated as FAIL", "task", id.String(), "topic", f.Topic)
		case resp.Result == kstreams.ProductionResume:
			t.log.Error(where+"; the production exception handler chose to CONTINUE processing in spite of this error: the record is dropped",
				"task", id.String(), "partition", f.Partition)
			t.s.hks.OnDroppedRecord(id, node, kstreams.DroppedProductionError)
			continue
		}
		return fmt.Errorf("streams: %s; the production exception handler chose to FAIL the processing, no more records would be sent: %w", where, f.Err)
	}
	return nil
}

// sendFenced reports the send errors that mean another producer took over,
// Kafka Streams' TaskMigratedException.
func sendFenced(err error) bool {
	return errors.Is(err, kerr.ProducerFenced) || errors.Is(err, kerr.InvalidProducerIDMapping) ||
		errors.Is(err, kerr.InvalidProducerEpoch) || errors.Is(err, kerr.OutOfOrderSequenceNumber)
}

// sendFatal reports the send errors Kafka Streams treats as fatal without
// asking the handler: security errors and those every later record would
// meet too.
func sendFatal(err error) bool {
	return errors.Is(err, kerr.TopicAuthorizationFailed) || errors.Is(err, kerr.ClusterAuthorizationFailed) ||
		errors.Is(err, kerr.TransactionalIDAuthorizationFailed) || errors.Is(err, kerr.GroupAuthorizationFailed) ||
		errors.Is(err, kerr.SaslAuthenticationFailed) || errors.Is(err, kerr.SecurityDisabled) ||
		errors.Is(err, kerr.InvalidTopicException) || errors.Is(err, kerr.UnknownServerError) ||
		errors.Is(err, kerr.OffsetMetadataTooLarge)
}
