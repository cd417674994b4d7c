'use strict';
const assert = require('node:assert/strict');
const { createInventory } = require('../src/inventory');

const inventory = createInventory();
inventory.add('bolts', 10, 0.5);
assert.equal(inventory.restock('bolts', 5), 15);
assert.equal(inventory.sell('bolts', 4), 2);
assert.throws(() => inventory.sell('bolts', 100), /only 11 bolts left/);
assert.equal(inventory.value(), 5.5);
console.log('inventory tests passed');
