/** This build's id: the instructor page's offline cache is versioned by it (instructor-sw.js). */
export const BUILD_ID = Date.now().toString(36);
