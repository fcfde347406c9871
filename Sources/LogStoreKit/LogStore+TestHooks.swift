// Test hooks, compiled only with IMAGECACHE_TEST_HOOKS (debug builds of this package): the
// release build and vendored copies have none.
#if IMAGECACHE_TEST_HOOKS
    extension LogStore {
        /// Closes the handle as a crashed process would, dropping the write buffer without
        /// writing it and writing no snapshot and no sync mark. The file is left exactly as the
        /// operating system has it.
        public func abandon() {
            writerLock.withLock {
                guard !isClosed else { return }
                stateLock.withWriteLock {
                    bufferedCount = 0
                    olderCount = 0
                    closeDescriptor()
                    index = KeyIndex()
                }
            }
        }
    }
#endif
