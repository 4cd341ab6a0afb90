"""Cryptography.

age v1, strict Ed25519, minisign export, Merkle trees and the injected
randomness.
"""
