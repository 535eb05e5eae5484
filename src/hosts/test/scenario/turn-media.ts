import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** PromptKit's `media` of a part: a file beside the scenario, a URL, or base64 `data`. */
export interface MediaSource {
  file_path?: string;
  url?: string;
  data?: string;
  mime_type?: string;
}

export interface MediaPart {
  type: string;
  text?: string;
  media?: MediaSource;
}

/** An image part as the run reads it: a file (already resolved against the scenario's folder) or base64. */
export type ScenarioImage = { label: string; path: string } | { label: string; base64: string; mimeType?: string };

export type TurnMedia = { images: ScenarioImage[] } | { skip: string };

/**
 * The images a turn's parts carry, or why the turn cannot be run: a part auggy does not send
 * (audio, video, a document) or an image it would have to fetch from the network.
 */
export function turnMedia(parts: readonly MediaPart[] | undefined, scenarioDir: string): TurnMedia {
  const images: ScenarioImage[] = [];
  for (const [index, part] of (parts ?? []).entries()) {
    if (part.type === 'text') continue;
    const label = `the ${part.type} in part ${index + 1}`;
    if (part.type !== 'image') {
      return { skip: `its ${part.type} part is not sent: auggy sends a model text and images, not ${part.type}, so the turn is not run` };
    }
    const media = part.media ?? {};
    if (media.data !== undefined) {
      images.push({ label, base64: media.data, ...(media.mime_type !== undefined ? { mimeType: media.mime_type } : {}) });
    } else if (media.file_path !== undefined) {
      images.push({ label, path: isAbsolute(media.file_path) ? media.file_path : join(scenarioDir, media.file_path) });
    } else if (media.url?.startsWith('file:')) {
      images.push({ label, path: fileURLToPath(media.url) });
    } else if (media.url?.startsWith('data:')) {
      images.push({ label, base64: media.url });
    } else if (media.url !== undefined) {
      return {
        skip: `its image part is at ${media.url}, and auggy test fetches nothing from the network; save the image beside the scenario and name it in media.file_path`,
      };
    } else {
      return { skip: `its image part has no media (file_path, url or data), so there is no image to send` };
    }
  }
  return { images };
}
