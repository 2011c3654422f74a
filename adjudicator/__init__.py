"""Pure rules engine for IAAPA Axis & Allies 2nd edition: no web, no database, no clock, no dice."""
