import type { Severity } from '../../agent/types.js';
import type { FieldPath } from '../../agent/yaml-source.js';

/** Records one finding about a pack at a path inside it; the checks of each part share it. */
export type Report = (severity: Severity, path: FieldPath, message: string) => void;
