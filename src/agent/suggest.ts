/** Edit distance between two short strings (names, ids), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = previous[j - 1] + (left[i - 1] === right[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length];
}

/** The candidate closest to `input`, or undefined when none is close enough to be a likely typo. */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const score = editDistance(input, candidate);
    if (!best || score < best.score) best = { candidate, score };
  }
  if (!best) return undefined;
  // A third of the word may be wrong (opneai, antropic) but not the whole of it.
  const allowed = Math.max(2, Math.floor(best.candidate.length / 3));
  return best.score <= allowed ? best.candidate : undefined;
}

/** `; did you mean openai?` or nothing. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const suggestion = nearest(input, candidates);
  return suggestion ? `; did you mean ${suggestion}?` : '';
}
