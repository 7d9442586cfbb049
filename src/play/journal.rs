//! The one path from a change to the players: a thread that commits each
//! batch of writes to the store and only then sends the messages that tell
//! of it.
//!
//! Batches arrive in the order the server made the changes (it queues them
//! while holding its state's lock) and are handled in that order, so no
//! message ever tells of a change that a crash could still lose, and an
//! answer that reads the state is sent after every change it saw is on
//! disk. Batches that queue up while a commit runs are committed together
//! (one transaction, one sync: a group commit). A store that fails to
//! write stops the server: the state in memory is then ahead of the disk,
//! and a restart rebuilds it from the disk.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;

use tokio::sync::{oneshot, Notify};

use super::store::{Store, Write};

/// The most bytes queued for one connection and not yet written to its
/// socket. Past it the client is not reading (or cannot keep up) and is
/// dropped: before, the cap counted messages, and one seated client that
/// did not read took the server from 221 to 834 MB as every model pushed
/// to it waited in memory. 4 MiB holds about a hundred models of the
/// largest board, and a whole game's review.
pub const MAX_QUEUED_BYTES: usize = 4 << 20;

/// Where a connection's messages go: its queue, the bytes in it, and a
/// bell that closes it when it holds too much (a client that does not
/// read).
#[derive(Clone, Debug)]
pub struct Outbox {
    /// The connection's queue of text frames.
    pub queue: tokio::sync::mpsc::Sender<String>,
    /// Rung when the connection must close.
    pub close: Arc<Notify>,
    /// The bytes queued, not yet taken to be written.
    pub queued: Arc<AtomicUsize>,
}

impl Outbox {
    /// An outbox over `queue`, closed by `close`.
    pub fn new(queue: tokio::sync::mpsc::Sender<String>, close: Arc<Notify>) -> Outbox {
        Outbox {
            queue,
            close,
            queued: Arc::default(),
        }
    }

    /// Queues `text`, or, if that would put the queue over
    /// [`MAX_QUEUED_BYTES`] (or its count of messages), drops it and
    /// closes the connection.
    pub fn send(&self, text: String) {
        let len = text.len();
        let before = self.queued.fetch_add(len, Ordering::AcqRel);
        if before + len > MAX_QUEUED_BYTES {
            self.queued.fetch_sub(len, Ordering::AcqRel);
            self.close.notify_one();
            return;
        }
        match self.queue.try_send(text) {
            Ok(()) => {}
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
                self.close.notify_one();
            }
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
            }
        }
    }

    /// A message taken off the queue to be written: its bytes no longer
    /// count.
    pub fn taken(&self, text: &str) {
        self.queued.fetch_sub(text.len(), Ordering::AcqRel);
    }

    /// The bytes queued now.
    pub fn queued_bytes(&self) -> usize {
        self.queued.load(Ordering::Acquire)
    }
}

/// Changes and the messages that tell of them.
#[derive(Default)]
pub struct Batch {
    /// The writes, in order.
    pub writes: Vec<Write>,
    /// The messages, in order.
    pub sends: Vec<(Outbox, String)>,
}

impl Batch {
    /// Adds a write.
    pub fn write(&mut self, w: Write) {
        self.writes.push(w);
    }
    /// Adds a message to `to`.
    pub fn send(&mut self, to: &Outbox, text: String) {
        self.sends.push((to.clone(), text));
    }
}

struct Entry {
    batch: Batch,
    done: Option<oneshot::Sender<()>>,
}

/// The committing thread's queue.
pub struct Journal {
    queue: Option<mpsc::Sender<Entry>>,
    thread: Option<JoinHandle<()>>,
    /// Batches queued so far: the `n`-th is batch number `n`.
    queued: AtomicU64,
    /// Batches committed so far (they commit in the order queued).
    committed: Arc<AtomicU64>,
}

/// The most batches committed together.
const GROUP: usize = 1024;

impl Journal {
    /// Starts the thread over `store`.
    pub fn start(mut store: Box<dyn Store>) -> Journal {
        let (queue, entries) = mpsc::channel::<Entry>();
        let committed = Arc::new(AtomicU64::new(0));
        let count = committed.clone();
        let thread = std::thread::Builder::new()
            .name("ttr-play-journal".into())
            .spawn(move || {
                while let Ok(first) = entries.recv() {
                    let mut group = vec![first];
                    while group.len() < GROUP {
                        match entries.try_recv() {
                            Ok(e) => group.push(e),
                            Err(_) => break,
                        }
                    }
                    let writes: Vec<Write> = group
                        .iter_mut()
                        .flat_map(|e| std::mem::take(&mut e.batch.writes))
                        .collect();
                    if let Err(e) = store.write(&writes) {
                        eprintln!(
                            "ttr-opt play: {e}\nstopping: the last change could not be saved, \
                             and no player was told of it; start the server again to continue \
                             from the last saved move"
                        );
                        std::process::exit(1);
                    }
                    count.fetch_add(group.len() as u64, Ordering::Release);
                    for entry in group {
                        for (to, text) in entry.batch.sends {
                            to.send(text);
                        }
                        if let Some(done) = entry.done {
                            let _ = done.send(());
                        }
                    }
                }
            })
            .expect("a thread can be started");
        Journal {
            queue: Some(queue),
            thread: Some(thread),
            queued: AtomicU64::new(0),
            committed,
        }
    }

    /// The number the next batch queued gets: a change made now is on
    /// disk once [`Journal::committed`] reaches it.
    pub fn next_number(&self) -> u64 {
        self.queued.load(Ordering::Acquire) + 1
    }

    /// How many batches are on disk: every batch numbered up to it.
    pub fn committed(&self) -> u64 {
        self.committed.load(Ordering::Acquire)
    }

    /// Queues `batch`; the receiver fires once it is committed and its
    /// messages are queued.
    pub fn commit(&self, batch: Batch) -> oneshot::Receiver<()> {
        let (done, committed) = oneshot::channel();
        self.queued.fetch_add(1, Ordering::AcqRel);
        if let Some(q) = &self.queue {
            let _ = q.send(Entry {
                batch,
                done: Some(done),
            });
        }
        committed
    }

    /// Commits what is queued and stops the thread.
    pub fn stop(&mut self) {
        self.queue = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        self.stop();
    }
}
