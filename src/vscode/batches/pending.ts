// How many batches of this window have not ended, kept in the global state by the Batches view: activation reads
// it (one lookup, no file) to start polling them again after a reload, without loading the features otherwise.
export const PENDING_BATCHES_KEY = 'promptwright.batches.pending';
