// A repository path in a URL: each segment encoded, the slashes kept.
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
