// Test hooks, compiled only with IMAGECACHE_TEST_HOOKS (debug builds of this package): the
// backends' protocol carries none, and the release build and vendored copies have none.
#if IMAGECACHE_TEST_HOOKS
    /// A backend that can stop as a crashed process would.
    protocol AbandonableStorage: CacheStorage {
        /// Releases the files writing nothing that was buffered or deferred (no synchronize,
        /// no index, no snapshot).
        func abandon()
    }

    extension DictionaryStorage: AbandonableStorage {
        func abandon() { table.close() }
    }

    extension DirectoryStorage: AbandonableStorage {
        func abandon() { table.close() }
    }

    extension LogStorage: AbandonableStorage {
        func abandon() { store.abandon() }
    }

    extension HybridStorage: AbandonableStorage {
        func abandon() { log.abandon() }
    }

    extension ImageCache {
        /// Stops using the cache as a crashed process would: nothing buffered or deferred is
        /// written, and the folder's lock is released, so the next open sees the files exactly
        /// as a crash would leave them.
        func abandon() {
            writerLock.withLock {
                guard !isClosed else { return }
                isClosed = true
                OpenCaches.unregister(self)
                _ = hits.drain()
                (storage as? any AbandonableStorage)?.abandon()
                memory?.removeAll()
                folder.release()
            }
        }
    }
#endif
