export function close(): void {}
