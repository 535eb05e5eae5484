// The matcher lives beside the workflow's guardrails, which match a pack's patterns too; scenario checks import it from here.
export { MATCH_LIMIT_MS, PatternTimeoutError, patternMatches } from '../../../augments/go-pattern.js';
