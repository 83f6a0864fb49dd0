// GraphQL has no public face: no other module reads it, and app.ts registers its route plugin
// (it lives outside /api/v4). Tests name RESOURCE_UNAVAILABLE through support.ts.
export {}
