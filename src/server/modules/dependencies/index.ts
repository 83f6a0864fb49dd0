// The dependency list has no public face: no other module reads it, and modules/index.ts
// registers its route plugin.
export {}
