import { fuzzWorldTwice } from '../helpers/fuzz-world'
import { hostileInputSuite } from './fuzz/hostile-input'
import { refusalContractSuite } from './fuzz/refusal-contract'

// The two fuzz suites need the same world, each as built: it is built once, the refusal contract
// runs on the server that built it, and the hostile input suite (whose writes succeed and whose
// deletions take things away) on a second server started from a copy of its data dir taken
// before the contract ran.
const worlds = fuzzWorldTwice()

refusalContractSuite(() => worlds.first())
hostileInputSuite(() => worlds.second())
