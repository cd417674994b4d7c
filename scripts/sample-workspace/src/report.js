'use strict';
const { createInventory } = require('./inventory');

// Prints the value of a small example stock.
const inventory = createInventory();
inventory.add('bolts', 120, 0.1);
inventory.add('nuts', 300, 0.05);
inventory.add('washers', 80, 0.02);
inventory.sell('bolts', 20);
console.log(`stock value: ${inventory.value().toFixed(2)}`);
