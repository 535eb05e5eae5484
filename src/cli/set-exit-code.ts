/** How a command's action reports the process exit code to main. */
export type SetExitCode = (code: number) => void;
